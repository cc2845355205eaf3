/**
 * `mode: command`: what people ask of the gate on a pull request, handled by
 * a job on `issue_comment` (a `/perf-gate …` comment) or
 * `pull_request_target` (the accept label added or removed). The job never
 * checks out or runs the pull request's code: it reads the gate's own comment
 * (the last run's numbers in its ledger), checks that the person may merge
 * (write, maintain or admin, from the REST API — the pull request's author
 * counts only with write), and then
 *
 * - `accept`: records the acceptance in the ledger, re-decides from the last
 *   run without measuring, updates the comment, and posts a new check run on
 *   the commit the run measured (the latest check run of a name is the one
 *   that counts);
 * - `run` (or the run label): starts the benchmark workflow through
 *   workflow_dispatch and says so in the comment.
 *
 * Refusals are answered with one reply that says why. Only people who may
 * act are answered at all: a comment that is not a command, from someone
 * without write permission, gets no reply (the bot's voice is not theirs to
 * use), and every echoed word is escaped.
 */
import {
  acceptanceRecordMarkdown,
  encodeLedger,
  escapeMarkdown,
  MAX_GLOB_CHARS,
  recordAcceptance,
  redecide,
  withAcceptanceRecord,
  withdrawLabel,
  type CheckConclusion,
  type PrLedger,
} from '../pipeline/index.js';
import { cutText, InputError } from '../model/index.js';
import type { GitHubApi, RepoRef, RepoRole } from '../github/client.js';
import { fitToCommentLimit, MAX_LEDGER_CHARS, withMarker, type MarkerState } from '../github/sticky-comment.js';
import { readGateComment, type GateComment } from './pr-comment.js';
import { COMMAND_USAGE, parsePrCommands, type PrCommand } from './pr-command-text.js';
import type { ActionDeps } from './deps.js';
import { repoRef, type Settings } from './settings.js';
import { requestRun } from './pr-run-request.js';

/** What the event asks, reduced to what the handler needs. */
export type CommandEvent =
  | { kind: 'comment'; pullRequest: number; login: string; body: string; url: string; defaultBranch: string }
  | { kind: 'label'; pullRequest: number; login: string; label: string; added: boolean; defaultBranch: string };

const record = (v: unknown): Record<string, unknown> | null => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : null);

/** The command event of an issue_comment or a labeled/unlabeled payload; null when the event asks nothing of the gate. */
export function commandEvent(payload: unknown): CommandEvent | null {
  const p = record(payload);
  const comment = record(p?.['comment']);
  const issue = record(p?.['issue']);
  if (comment && issue) {
    // Only a new comment gives a command: editing one must not give it again (or change what was accepted).
    if (p?.['action'] !== 'created' || !record(issue['pull_request'])) return null;
    const login = record(comment['user'])?.['login'];
    if (typeof issue['number'] !== 'number' || typeof login !== 'string' || typeof comment['body'] !== 'string') return null;
    const defaultBranch = record(p?.['repository'])?.['default_branch'];
    return {
      kind: 'comment',
      pullRequest: issue['number'],
      login,
      body: comment['body'],
      url: String(comment['html_url'] ?? ''),
      defaultBranch: typeof defaultBranch === 'string' ? defaultBranch : 'main',
    };
  }
  const pr = record(p?.['pull_request']);
  const label = record(p?.['label'])?.['name'];
  const sender = record(p?.['sender'])?.['login'];
  if (
    pr &&
    typeof label === 'string' &&
    typeof sender === 'string' &&
    typeof pr['number'] === 'number' &&
    (p?.['action'] === 'labeled' || p?.['action'] === 'unlabeled')
  ) {
    const defaultBranch = record(p['repository'])?.['default_branch'];
    return {
      kind: 'label',
      pullRequest: pr['number'],
      login: sender,
      label,
      added: p['action'] === 'labeled',
      defaultBranch: typeof defaultBranch === 'string' ? defaultBranch : 'main',
    };
  }
  return null;
}

/** Roles that may merge, and so may accept a slowdown or spend the runner's time. */
const MAY_MERGE: ReadonlySet<RepoRole> = new Set(['write', 'maintain', 'admin']);

interface Context {
  github: GitHubApi;
  repo: RepoRef;
  settings: Settings;
  deps: ActionDeps;
  event: CommandEvent;
}

/** Handles the event; returns the exit status (0 also for a refused request: the reply says why). */
export async function runPrCommands(settings: Settings, payload: unknown, deps: ActionDeps): Promise<number> {
  const event = commandEvent(payload);
  if (!event) {
    deps.log.info('mode: command: this event asks nothing of perf-gate (not a new pull request comment, nor a label added or removed)');
    return 0;
  }
  if (!deps.github) throw new InputError('action input "github-token"', 'mode: command needs a token to check permissions, update the comment and reply');
  const ctx: Context = { github: deps.github, repo: repoRef(settings), settings, deps, event };
  if (event.kind === 'label') {
    if (event.label === settings.acceptLabel) await onAcceptLabel(ctx, event);
    else if (event.label === settings.runLabel && event.added) await onRunLabel(ctx, event);
    else deps.log.info(`label ${event.label} is neither ${settings.acceptLabel} nor ${settings.runLabel}: nothing to do`);
    return 0;
  }
  const commands = parsePrCommands(event.body);
  if (commands.length === 0) deps.log.info('the comment gives no /perf-gate command');
  for (const command of commands) await onCommand(ctx, event, command);
  return 0;
}

async function reply(ctx: Context, text: string): Promise<void> {
  await ctx.github.createIssueComment(ctx.repo, ctx.event.pullRequest, text);
  ctx.deps.log.info(`replied: ${text.split('\n')[0]}`);
}

/** Is the person allowed? Replies why not, unless `quietly`. */
async function mayMerge(ctx: Context, what: string, quietly = false): Promise<boolean> {
  const role = await ctx.github.collaboratorRole(ctx.repo, ctx.event.login);
  ctx.deps.log.info(`@${ctx.event.login} has the role ${role} on ${ctx.repo.owner}/${ctx.repo.repo}`);
  if (MAY_MERGE.has(role)) return true;
  if (quietly) return false;
  await reply(
    ctx,
    `@${ctx.event.login}: ${what} was refused: it needs write permission on ${ctx.repo.owner}/${ctx.repo.repo} (the right to merge), and your role is ${role}. A maintainer can do it for you.`,
  );
  return false;
}

async function onCommand(ctx: Context, event: Extract<CommandEvent, { kind: 'comment' }>, command: PrCommand): Promise<void> {
  if (command.kind === 'unknown') {
    // Answered only to people who may act: anyone else could make the bot repeat their words.
    if (await mayMerge(ctx, 'a command', true))
      await reply(ctx, `@${event.login}: perf-gate did not understand this: ${escapeMarkdown(command.problem)}. It takes ${COMMAND_USAGE}.`);
    else ctx.deps.log.info(`not a command perf-gate knows (${command.problem}), from @${event.login}, who may not act: no reply`);
    return;
  }
  if (command.kind === 'run') {
    if (await mayMerge(ctx, '`/perf-gate run`')) await run(ctx, event.defaultBranch);
    return;
  }
  if (!(await mayMerge(ctx, 'accepting a regression'))) return;
  await accept(ctx, { benchmarks: command.benchmarks, reason: command.reason, source: { kind: 'comment', url: event.url } });
}

/** Starts the benchmark workflow for the event's pull request (the permission is checked by the caller). */
function run(ctx: Context, defaultBranch: string): Promise<void> {
  const request = { pullRequest: ctx.event.pullRequest, login: ctx.event.login, ref: defaultBranch };
  return requestRun(ctx.settings, ctx.github, ctx.repo, request, ctx.deps, (text) => reply(ctx, text));
}

/** The run label: like `/perf-gate run`, with the same permission check (a triager may add labels, but not spend the runner). */
async function onRunLabel(ctx: Context, event: Extract<CommandEvent, { kind: 'label' }>): Promise<void> {
  if (await mayMerge(ctx, `the label ${event.label}`)) await run(ctx, event.defaultBranch);
}

async function onAcceptLabel(ctx: Context, event: Extract<CommandEvent, { kind: 'label' }>): Promise<void> {
  const label = escapeMarkdown(event.label);
  if (!event.added) {
    // Removing the label withdraws what it accepted. A removal that withdraws nothing changes nothing, and only a person who may accept may change the check.
    const found = await readLedger(ctx);
    const withdrawn = found ? withdrawLabel(found.ledger, event.label) : null;
    if (!found || !withdrawn) {
      ctx.deps.log.info(`the label ${event.label} was removed, but it had accepted nothing on record: nothing changes`);
      return;
    }
    if (!(await mayMerge(ctx, `removing the label ${label}`))) return;
    ctx.deps.log.info(`the label ${event.label} was removed: its acceptances are withdrawn`);
    await saveLedger(ctx, found, withdrawn);
    return;
  }
  if (!(await mayMerge(ctx, `the label ${label}`))) return;
  await accept(ctx, { benchmarks: '*', reason: `label ${event.label} added by @${event.login}`, source: { kind: 'label', label: event.label } });
}

/** The gate's comment with its ledger; null when there is no comment with a ledger yet. */
async function readLedger(ctx: Context): Promise<(GateComment & { ledger: PrLedger }) | null> {
  const found = await readGateComment(ctx.github, ctx.repo, ctx.event.pullRequest, ctx.settings);
  return found?.ledger ? { ...found, ledger: found.ledger } : null;
}

async function accept(
  ctx: Context,
  given: { benchmarks: string; reason: string; source: { kind: 'comment'; url: string } | { kind: 'label'; label: string } },
): Promise<void> {
  const found = await readLedger(ctx);
  if (!found) {
    await reply(
      ctx,
      `@${ctx.event.login}: there is nothing to accept yet: ${ctx.settings.gateName} has not reported on this pull request (its comment holds the numbers an acceptance is checked against).`,
    );
    return;
  }
  const outcome = recordAcceptance(found.ledger, { ...given, by: ctx.event.login, at: ctx.deps.run.now().toISOString() });
  if (!outcome.accepted && outcome.why === 'glob-too-long') {
    await reply(
      ctx,
      `@${ctx.event.login}: the benchmark glob is ${given.benchmarks.length.toLocaleString('en')} characters long; an acceptance takes at most ${MAX_GLOB_CHARS.toLocaleString('en')} (use \`*\` for the common part). Nothing was recorded.`,
    );
    return;
  }
  if (!outcome.accepted) {
    const list =
      outcome.acceptable.length > 0
        ? `rows that can be accepted: ${outcome.acceptable
            .slice(0, 20)
            .map((r) => escapeMarkdown(r))
            .join(', ')}`
        : 'the last run has no regressed or suspected row';
    await reply(
      ctx,
      `@${ctx.event.login}: ${escapeMarkdown(given.benchmarks)} names no regressed row of the last run on ${found.ledger.head.slice(0, 7)}; ${list}.`,
    );
    return;
  }
  await saveLedger(ctx, found, outcome.ledger);
  ctx.deps.log.info(`accepted ${outcome.acceptance.rows.length} row(s) for @${ctx.event.login}: ${given.reason}`);
}

/**
 * Re-decides from the ledger under the run's own policy, rewrites the
 * comment's record and marker (cut to GitHub's limit if the record grew), and
 * posts the check run for the measured commit. A ledger that cannot decide
 * (it left failing rows out) leaves the measured verdict and check standing.
 */
async function saveLedger(ctx: Context, found: GateComment, ledger: PrLedger): Promise<void> {
  const { failing, conclusion } = redecide(ledger);
  const verdict = conclusion === null ? found.state.verdict : failing.length === 0 ? 'pass' : 'fail';
  const state: MarkerState = { ...found.state, verdict, ledger: encodeLedger(ledger, MAX_LEDGER_CHARS) };
  const gate = ctx.settings.gateName;
  const record = acceptanceRecordMarkdown(ledger.acceptances, { failing, decided: conclusion !== null });
  const body = fitToCommentLimit(withMarker(withAcceptanceRecord(found.comment.body, record), gate, state), gate);
  await ctx.github.updateIssueComment(ctx.repo, found.comment.id, body);
  if (conclusion === null) {
    ctx.deps.log.info(
      `the ledger does not hold every failing row of the run on ${ledger.head.slice(0, 7)}: the measured check stands; the acceptances apply from the next run`,
    );
    return;
  }
  if (!ctx.settings.checkRun) return;
  const accepted = ledger.acceptances.flatMap((a) => a.rows).length;
  const by = [...new Set(ledger.acceptances.map((a) => `@${a.by}`))].join(', ');
  const listed = failing.slice(0, 50);
  await ctx.github.createCheckRun(ctx.repo, {
    name: gate,
    headSha: ledger.head,
    conclusion,
    output: {
      title: ledgerCheckTitle(failing.length, accepted, by, conclusion, ledger),
      summary: `Re-decided from the run on ${ledger.head.slice(0, 7)} without measuring again; the pull request comment has the record and the table.\n\n${[
        // Each name cut, so fifty of the longest still fit a check run's summary.
        ...listed.map((f) => `- ${escapeMarkdown(cutText(f, 200))}`),
        ...(failing.length > listed.length ? [`- and ${failing.length - listed.length} more`] : []),
      ].join('\n')}`,
    },
  });
}

/** The re-decided check's title: what passes or fails, and why a pass is not a success when the policy says so. */
function ledgerCheckTitle(failing: number, accepted: number, by: string, conclusion: CheckConclusion, ledger: PrLedger): string {
  const after = accepted > 0 ? ` after ${accepted} accepted` : '';
  if (failing > 0) return `Fail: ${failing} row${failing === 1 ? '' : 's'} still failing${after}`;
  const inconclusive = `${ledger.inconclusive} inconclusive row${ledger.inconclusive === 1 ? '' : 's'}`;
  if (conclusion === 'failure') return `Fail: ${inconclusive} (inconclusive: fail)${after}`;
  const pass = `Pass: ${accepted} regression${accepted === 1 ? '' : 's'} accepted on the record${by ? ` by ${by}` : ''}`;
  if (conclusion === 'success') return pass;
  return `${pass}; neutral: ${ledger.policy?.selfReported ? "the numbers were measured by the pull request's own workflow" : `${inconclusive} (inconclusive: neutral)`}`;
}
