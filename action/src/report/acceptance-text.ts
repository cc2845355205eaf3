/**
 * How an acceptance reads next to its row and in a list: who accepted the
 * slowdown, on which commit, why — and, when the row got worse since, that it
 * no longer holds. Plain text; each format escapes it.
 */
import type { Acceptance, RowAcceptance } from '../gate/acceptance.js';
import { escapeMarkdown } from './escape-markdown.js';
import { formatPercent, shortCommit } from './format.js';

function how(source: RowAcceptance['source']): string {
  return source.kind === 'label' ? ` with the label ${source.label}` : '';
}

/** A change point on main that its pull request accepted: "slower, accepted in #12 by @ana: the exact parser is slower by design". Plain text. */
export function acceptedChangeText(accepted: { pullRequest: number; by: string; reason: string }): string {
  return `slower, accepted in #${accepted.pullRequest} by @${accepted.by}: ${accepted.reason}`;
}

/** "accepted at +8.0 % by @ana on abc1234: the new parser is exact" / "… now beyond it". */
export function acceptanceNote(a: RowAcceptance): string {
  const given = `accepted at ${formatPercent(a.change)} by @${a.by}${how(a.source)} on ${shortCommit(a.commit)}: ${a.reason}`;
  return a.holds ? given : `${given}; it got worse since, beyond its tolerance, so it fails again`;
}

const MAX_RECORD_ACCEPTANCES = 20;
const MAX_RECORD_ROWS = 5;
const MAX_NAME_CHARS = 120;

/** A name cut to MAX_NAME_CHARS, with an ellipsis. */
function cut(text: string): string {
  return text.length > MAX_NAME_CHARS ? `${text.slice(0, MAX_NAME_CHARS - 1)}…` : text;
}

const RECORD_START = '<!-- perf-gate:accepted -->';
const RECORD_END = '<!-- /perf-gate:accepted -->';
const STATUS_START = '<!-- perf-gate:run -->';
const STATUS_END = '<!-- /perf-gate:run -->';

/** The body with the block between `start` and `end` replaced by `block` in place, or `block` put on top when there was none. */
function spliceBlock(body: string, start: string, end: string, block: string): string {
  const from = body.indexOf(start);
  const to = body.indexOf(end);
  if (from === -1 || to < from) return `${block}${body}`;
  return body.slice(0, from) + block + body.slice(to + end.length).replace(/^\n/, '');
}

/** What the command job decided from the ledger: the rows still failing, and whether the ledger could decide at all. */
export interface LedgerDecision {
  failing: readonly string[];
  /** False when the ledger left failing rows out (or predates the policy): the measured check stands. */
  decided: boolean;
}

const MAX_FAILING_LISTED = 10;

/**
 * The pull request comment's record of acceptances, above the report: who
 * accepted which rows at what change, on which commit, why. `decision`
 * (from the issue_comment job, which re-decides without re-measuring) adds
 * what the gate says now; null on a measured run, whose report says it.
 */
export function acceptanceRecordMarkdown(acceptances: readonly Acceptance[], decision: LedgerDecision | null): string {
  if (acceptances.length === 0) return '';
  // Bounded, so the record never crowds the report out of the comment: the newest acceptances, a few rows each, names cut.
  const shown = acceptances.slice(-MAX_RECORD_ACCEPTANCES);
  const earlier = acceptances.length - shown.length;
  const lines = [
    RECORD_START,
    '### ☑️ Regressions accepted on the record',
    '',
    '| Accepted by | Benchmarks | Rows, at the change accepted | On | Reason |',
    '| :-- | :-- | :-- | :-- | :-- |',
    ...shown.map((a) => {
      const listed = a.rows
        .slice(0, MAX_RECORD_ROWS)
        .map((r) => `${escapeMarkdown(cut(r.benchmark))} ${escapeMarkdown(cut(r.metric))} ${formatPercent(r.change)}`);
      const rows = [...listed, ...(a.rows.length > listed.length ? [`and ${a.rows.length - listed.length} more`] : [])].join('<br>');
      const how = a.source.kind === 'comment' ? ` ([comment](${a.source.url}))` : ` (label ${escapeMarkdown(a.source.label)})`;
      return `| ${escapeMarkdown(`@${a.by}`)} | ${escapeMarkdown(cut(a.benchmarks))} | ${rows} | \`${shortCommit(a.commit)}\` | ${escapeMarkdown(a.reason)}${how} |`;
    }),
    ...(earlier > 0 ? ['', `${earlier} earlier acceptance${earlier === 1 ? '' : 's'} not shown (the JSON report's rows name what each accepted).`] : []),
    '',
  ];
  if (decision !== null) {
    const commit = shortCommit(acceptances.at(-1)!.commit);
    // Bounded like the rest: a few names, cut, and how many more.
    const listed = decision.failing.slice(0, MAX_FAILING_LISTED).map((s) => escapeMarkdown(cut(s)));
    const more = decision.failing.length - listed.length;
    const failing = `${listed.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
    lines.push(
      !decision.decided
        ? `**⏸️ The check stays as measured on \`${commit}\`:** the comment's ledger does not hold every failing row of that run (${failing}), so perf-gate cannot re-decide it without measuring. The acceptances apply from the next run.`
        : decision.failing.length === 0
          ? `**✅ The gate passes on \`${commit}\` with these acceptances.** The table below is that run's, measured before them; a push that makes an accepted row worse beyond its tolerance fails again.`
          : `**❌ Still failing on \`${commit}\`:** ${failing}.`,
      '',
    );
  }
  lines.push(RECORD_END, '');
  return lines.join('\n');
}

/** The comment body with its record replaced by `record` (or added above the report; removed when empty). */
export function withAcceptanceRecord(body: string, record: string): string {
  return spliceBlock(body, RECORD_START, RECORD_END, record);
}

/** A run asked for with `/perf-gate run`: who asked and when, then when it started and finished (ISO times). */
export interface RunStatus {
  by: string;
  requested: string;
  started?: string;
  finished?: string;
}

/** "2026-11-21 12:00 UTC" */
function minute(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** The line on top of the comment that follows a requested run: queued, running, done. */
export function runStatusMarkdown(s: RunStatus): string {
  const asked = `requested by ${escapeMarkdown(`@${s.by}`)} at ${minute(s.requested)}`;
  const line = s.finished
    ? `🏁 Run ${asked} · started ${minute(s.started ?? s.requested)} · finished ${minute(s.finished)}.`
    : s.started
      ? `▶️ **Running** since ${minute(s.started)}, ${asked}. This comment is updated when it finishes.`
      : `⏳ **Run ${asked}**: queued for the benchmark runner, which runs one gate at a time.`;
  return `${STATUS_START}\n${line}\n\n${STATUS_END}\n`;
}

/** The comment body with its run status line replaced (or put on top). */
export function withRunStatus(body: string, status: string): string {
  return spliceBlock(body, STATUS_START, STATUS_END, status);
}
