/**
 * A pull request's ledger: what the last run of the gate found that a person
 * may accept, and the acceptances on record. It travels in the sticky
 * comment's marker (github/sticky-comment.ts), so the `issue_comment` job that
 * handles `/perf-gate accept` decides from the last run's numbers without
 * checking out or running the pull request's code, and the next run of the
 * pull request finds the acceptances to apply.
 */
import { formatPercent } from '../report/format.js';
import { checkConclusionOf, FAIL_ON, INCONCLUSIVE, type CheckConclusion, type CheckPolicy } from '../gate/check-policy.js';
import { acceptable, acceptanceOf, rowsToAccept, withinAccepted, type Acceptance, type AcceptedRow, type GateReport, type VerdictRow } from '../gate/index.js';

export const LEDGER_VERSION = 2;
/** Ledgers of version 1 are still read, as incomplete: they did not record what they left out, nor the check policy. */
const READ_VERSIONS: readonly number[] = [1, LEDGER_VERSION];

/** A row of the last run that an acceptance could name. */
export interface LedgerRow extends AcceptedRow {
  status: VerdictRow['status'];
  tolerance: number;
  /** Did it fail the gate before any acceptance? */
  failsGate: boolean;
  /** Does an exceeded budget fail it whatever is accepted? */
  budgetFails: boolean;
}

export interface PrLedger {
  version: typeof LEDGER_VERSION;
  /** The head commit the last run measured. */
  head: string;
  rows: LedgerRow[];
  /** Rows of the last run that fail for what no acceptance covers (a crash, a budget, a missing benchmark): "name metric: status". */
  otherFailures: string[];
  /**
   * Failing rows of the run that the ledger could not hold (beyond its row
   * bounds, or cut to fit the comment); null when unknown (a version-1
   * ledger). A re-decision from a ledger that left any out never passes.
   */
  leftOut: number | null;
  /** Rows of the run the statistics could not decide: the policy says what they do to the check. */
  inconclusive: number;
  /** The check policy of the run that measured; null when unknown (a version-1 ledger). */
  policy: CheckPolicy | null;
  acceptances: Acceptance[];
}

/** Bounds that keep the ledger well inside a comment: rows beyond them cannot be accepted from the comment. */
const MAX_ROWS = 100;
const MAX_ACCEPTANCES = 50;
export const MAX_REASON_CHARS = 500;
/** The longest benchmark glob an acceptance takes: a longer one is refused at the command (the stored run's limit is 4,096). */
export const MAX_GLOB_CHARS = 1_000;

/** Does the row fail the gate whatever is accepted, or until it is? */
const failing = (r: Pick<LedgerRow, 'failsGate' | 'budgetFails'>): boolean => r.failsGate || r.budgetFails;

/** The ledger of a run, from its report before any acceptance: its acceptable rows, what else fails, the policy it was decided under, and the acceptances carried on. */
export function ledgerOf(report: GateReport, head: string, acceptances: readonly Acceptance[], policy: CheckPolicy): PrLedger {
  const allAcceptable = report.rows.filter((r) => acceptable(r));
  const rows = allAcceptable.slice(0, MAX_ROWS);
  const others = report.rows.filter((r) => r.failsGate && !acceptable(r));
  const budgetFails = (r: VerdictRow): boolean => r.budget?.result === 'fail' && r.budget.severity === 'fail';
  const leftOut = allAcceptable.slice(MAX_ROWS).filter((r) => r.failsGate || budgetFails(r)).length + Math.max(0, others.length - MAX_ROWS);
  return {
    version: LEDGER_VERSION,
    head,
    rows: rows.map((r) => ({
      benchmark: r.benchmark,
      metric: r.metric,
      change: r.change!,
      direction: r.direction,
      status: r.status,
      tolerance: r.tolerance,
      failsGate: r.failsGate,
      budgetFails: budgetFails(r),
    })),
    otherFailures: others.slice(0, MAX_ROWS).map((r) => `${r.benchmark} ${r.metric}: ${r.budget?.result === 'fail' ? 'budget exceeded' : r.status}`),
    leftOut,
    inconclusive: report.counts.inconclusive,
    policy,
    acceptances: acceptances.slice(-MAX_ACCEPTANCES),
  };
}

/**
 * The ledger as the marker carries it (base64 of its JSON), at most
 * `maxChars` long (the part of the comment the caller can spare for it:
 * github/sticky-comment.ts MAX_LEDGER_CHARS): long benchmark names could
 * otherwise crowd the report out of the comment. What does not fit goes,
 * least needed first: the last run's rows from the end (they can no longer
 * be accepted from the comment, and the failing ones are counted in
 * `leftOut`, so the command job never re-decides "pass" without them), then
 * the oldest acceptances.
 */
export function encodeLedger(ledger: PrLedger, maxChars: number): string {
  const encode = (l: PrLedger): string => Buffer.from(JSON.stringify(l), 'utf8').toString('base64');
  let fitted = ledger;
  let text = encode(fitted);
  while (text.length > maxChars && (fitted.rows.length > 0 || fitted.otherFailures.length > 0 || fitted.acceptances.length > 0)) {
    const leftOut = (more: number): number | null => (fitted.leftOut === null ? null : fitted.leftOut + more);
    if (fitted.rows.length > 0) {
      const kept = fitted.rows.slice(0, Math.floor(fitted.rows.length / 2));
      fitted = { ...fitted, rows: kept, leftOut: leftOut(fitted.rows.slice(kept.length).filter(failing).length) };
    } else if (fitted.otherFailures.length > 0) {
      const kept = fitted.otherFailures.slice(0, Math.floor(fitted.otherFailures.length / 2));
      fitted = { ...fitted, otherFailures: kept, leftOut: leftOut(fitted.otherFailures.length - kept.length) };
    } else fitted = { ...fitted, acceptances: fitted.acceptances.slice(1) };
    text = encode(fitted);
  }
  return text;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function isAcceptedRow(v: unknown): v is AcceptedRow {
  const r = v as AcceptedRow;
  return (
    typeof v === 'object' &&
    v !== null &&
    isString(r.benchmark) &&
    isString(r.metric) &&
    isNumber(r.change) &&
    (r.direction === 'lower' || r.direction === 'higher')
  );
}

function isAcceptance(v: unknown): v is Acceptance {
  const a = v as Acceptance;
  const source = a?.source as { kind?: unknown; url?: unknown; label?: unknown } | undefined;
  return (
    typeof v === 'object' &&
    v !== null &&
    [a.benchmarks, a.reason, a.by, a.commit, a.at].every(isString) &&
    (source?.kind === 'comment' ? isString(source.url) : source?.kind === 'label' && isString(source.label)) &&
    Array.isArray(a.rows) &&
    a.rows.every(isAcceptedRow)
  );
}

/** The ledger from a marker's text; null when absent or not one this version wrote (then nothing is on record). */
export function decodeLedger(text: string | undefined): PrLedger | null {
  if (!text) return null;
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
  } catch {
    return null;
  }
  const l = data as PrLedger;
  if (typeof data !== 'object' || data === null || !READ_VERSIONS.includes(l.version) || !isString(l.head)) return null;
  if (!Array.isArray(l.rows) || !l.rows.every((r) => isAcceptedRow(r) && isNumber(r.tolerance) && typeof r.failsGate === 'boolean')) return null;
  if (!Array.isArray(l.otherFailures) || !l.otherFailures.every(isString)) return null;
  if (!Array.isArray(l.acceptances) || !l.acceptances.every(isAcceptance)) return null;
  if (l.version !== LEDGER_VERSION) return { ...l, version: LEDGER_VERSION, leftOut: null, inconclusive: 0, policy: null };
  if (!(l.leftOut === null || (Number.isInteger(l.leftOut) && l.leftOut >= 0)) || !(Number.isInteger(l.inconclusive) && l.inconclusive >= 0)) return null;
  if (l.policy !== null && !isPolicy(l.policy)) return null;
  return l;
}

function isPolicy(v: unknown): v is CheckPolicy {
  const p = v as CheckPolicy;
  return typeof v === 'object' && v !== null && FAIL_ON.includes(p.failOn) && INCONCLUSIVE.includes(p.inconclusive) && typeof p.selfReported === 'boolean';
}

/** What the ledger's run decides with the acceptances applied: the rows still failing, by name (rows the ledger left out counted in one entry). */
export function stillFailing(ledger: PrLedger): string[] {
  const open = ledger.rows.filter((r) => {
    if (r.budgetFails) return true;
    if (!r.failsGate) return false;
    const accepted = acceptanceOf(r, ledger.acceptances);
    return !accepted || !withinAccepted(r.change, accepted.row.change, r.direction, r.tolerance);
  });
  const leftOut =
    ledger.leftOut === null
      ? ["rows the comment's ledger (written by an older perf-gate) may not hold"]
      : ledger.leftOut > 0
        ? [`${ledger.leftOut} more failing row${ledger.leftOut === 1 ? '' : 's'} the comment's ledger could not hold`]
        : [];
  return [...open.map((r) => `${r.benchmark} ${r.metric}: ${r.status} ${formatPercent(r.change)}`), ...ledger.otherFailures, ...leftOut];
}

/**
 * The check after the acceptances on record, decided from the ledger alone:
 * the conclusion under the run's own policy, or null when the ledger cannot
 * decide (it left failing rows out, or predates the policy) and the measured
 * check must stand until the next run measures with the acceptances applied.
 */
export function redecide(ledger: PrLedger): { failing: string[]; conclusion: CheckConclusion | null } {
  const failing = stillFailing(ledger);
  if (ledger.leftOut !== 0 || ledger.policy === null) return { failing, conclusion: null };
  return { failing, conclusion: checkConclusionOf({ verdict: failing.length === 0 ? 'pass' : 'fail', inconclusive: ledger.inconclusive }, ledger.policy) };
}

export type AcceptOutcome =
  | { accepted: true; ledger: PrLedger; acceptance: Acceptance; stillFailing: string[] }
  | { accepted: false; why: 'no-rows'; acceptable: string[] }
  | { accepted: false; why: 'glob-too-long'; acceptable: string[] };

/** Records an acceptance of the rows `glob` names in the ledger's run; refused when it names none, or is longer than a stored run keeps. */
export function recordAcceptance(ledger: PrLedger, given: Omit<Acceptance, 'rows' | 'commit'>): AcceptOutcome {
  if (given.benchmarks.length > MAX_GLOB_CHARS) return { accepted: false, why: 'glob-too-long', acceptable: [] };
  const rows = rowsToAccept(ledger.rows, given.benchmarks);
  if (rows.length === 0) return { accepted: false, why: 'no-rows', acceptable: ledger.rows.map((r) => `${r.benchmark} ${r.metric}`) };
  const acceptance: Acceptance = { ...given, reason: given.reason.slice(0, MAX_REASON_CHARS), commit: ledger.head, rows };
  const next: PrLedger = { ...ledger, acceptances: [...ledger.acceptances, acceptance].slice(-MAX_ACCEPTANCES) };
  return { accepted: true, ledger: next, acceptance, stillFailing: stillFailing(next) };
}

/** Withdraws the acceptances a label gave (the label was removed); null when it gave none, and so nothing changes. */
export function withdrawLabel(ledger: PrLedger, label: string): PrLedger | null {
  const kept = ledger.acceptances.filter((a) => !(a.source.kind === 'label' && a.source.label === label));
  return kept.length === ledger.acceptances.length ? null : { ...ledger, acceptances: kept };
}
