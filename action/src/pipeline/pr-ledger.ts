/**
 * A pull request's ledger: what the last run of the gate found that a person
 * may accept, and the acceptances on record. It travels in the sticky
 * comment's marker (github/sticky-comment.ts), so the `issue_comment` job that
 * handles `/perf-gate accept` decides from the last run's numbers without
 * checking out or running the pull request's code, and the next run of the
 * pull request finds the acceptances to apply.
 */
import { formatPercent } from '../report/format.js';
import {
  acceptable,
  acceptanceOf,
  applyAcceptances,
  rowsToAccept,
  withinAccepted,
  type Acceptance,
  type AcceptedRow,
  type GateReport,
  type VerdictRow,
} from '../gate/index.js';

export const LEDGER_VERSION = 1;

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
  acceptances: Acceptance[];
}

/** Bounds that keep the ledger well inside a comment: rows beyond them cannot be accepted from the comment. */
const MAX_ROWS = 100;
const MAX_ACCEPTANCES = 50;
export const MAX_REASON_CHARS = 500;

/** The ledger of a run, from its report before any acceptance: its acceptable rows, what else fails, and the acceptances carried on. */
export function ledgerOf(report: GateReport, head: string, acceptances: readonly Acceptance[]): PrLedger {
  const rows = report.rows.filter((r) => acceptable(r)).slice(0, MAX_ROWS);
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
      budgetFails: r.budget?.result === 'fail' && r.budget.severity === 'fail',
    })),
    otherFailures: report.rows
      .filter((r) => r.failsGate && !acceptable(r))
      .slice(0, MAX_ROWS)
      .map((r) => `${r.benchmark} ${r.metric}: ${r.budget?.result === 'fail' ? 'budget exceeded' : r.status}`),
    acceptances: acceptances.slice(-MAX_ACCEPTANCES),
  };
}

/** The most characters the encoded ledger may take of the comment's 65,536 (the report needs the rest). */
export const MAX_LEDGER_CHARS = 24_000;

/**
 * The ledger as the marker carries it (base64 of its JSON), at most
 * MAX_LEDGER_CHARS long: long benchmark names could otherwise crowd the
 * report out of the comment. What does not fit goes, least needed first: the
 * last run's rows from the end (they can no longer be accepted from the
 * comment), then the oldest acceptances.
 */
export function encodeLedger(ledger: PrLedger): string {
  const encode = (l: PrLedger): string => Buffer.from(JSON.stringify(l), 'utf8').toString('base64');
  let fitted = ledger;
  let text = encode(fitted);
  while (text.length > MAX_LEDGER_CHARS && (fitted.rows.length > 0 || fitted.otherFailures.length > 0 || fitted.acceptances.length > 0)) {
    if (fitted.rows.length > 0) fitted = { ...fitted, rows: fitted.rows.slice(0, Math.floor(fitted.rows.length / 2)) };
    else if (fitted.otherFailures.length > 0) fitted = { ...fitted, otherFailures: fitted.otherFailures.slice(0, Math.floor(fitted.otherFailures.length / 2)) };
    else fitted = { ...fitted, acceptances: fitted.acceptances.slice(1) };
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
  if (typeof data !== 'object' || data === null || l.version !== LEDGER_VERSION || !isString(l.head)) return null;
  if (!Array.isArray(l.rows) || !l.rows.every((r) => isAcceptedRow(r) && isNumber(r.tolerance) && typeof r.failsGate === 'boolean')) return null;
  if (!Array.isArray(l.otherFailures) || !l.otherFailures.every(isString)) return null;
  if (!Array.isArray(l.acceptances) || !l.acceptances.every(isAcceptance)) return null;
  return l;
}

/** What the ledger's run decides with the acceptances applied: the rows still failing, by name. */
export function stillFailing(ledger: PrLedger): string[] {
  const open = ledger.rows.filter((r) => {
    if (r.budgetFails) return true;
    if (!r.failsGate) return false;
    const accepted = acceptanceOf(r, ledger.acceptances);
    return !accepted || !withinAccepted(r.change, accepted.row.change, r.direction, r.tolerance);
  });
  return [...open.map((r) => `${r.benchmark} ${r.metric}: ${r.status} ${formatPercent(r.change)}`), ...ledger.otherFailures];
}

export type AcceptOutcome =
  { accepted: true; ledger: PrLedger; acceptance: Acceptance; stillFailing: string[] } | { accepted: false; why: 'no-rows'; acceptable: string[] };

/** Records an acceptance of the rows `glob` names in the ledger's run; refused when it names none. */
export function recordAcceptance(ledger: PrLedger, given: Omit<Acceptance, 'rows' | 'commit'>): AcceptOutcome {
  const rows = rowsToAccept(ledger.rows, given.benchmarks);
  if (rows.length === 0) return { accepted: false, why: 'no-rows', acceptable: ledger.rows.map((r) => `${r.benchmark} ${r.metric}`) };
  const acceptance: Acceptance = { ...given, reason: given.reason.slice(0, MAX_REASON_CHARS), commit: ledger.head, rows };
  const next: PrLedger = { ...ledger, acceptances: [...ledger.acceptances, acceptance].slice(-MAX_ACCEPTANCES) };
  return { accepted: true, ledger: next, acceptance, stillFailing: stillFailing(next) };
}

/** Withdraws the acceptances a label gave (the label was removed). */
export function withdrawLabel(ledger: PrLedger, label: string): PrLedger {
  return { ...ledger, acceptances: ledger.acceptances.filter((a) => !(a.source.kind === 'label' && a.source.label === label)) };
}

/** A run's report with the ledger's acceptances applied (none without a ledger). */
export function withLedger(report: GateReport, ledger: PrLedger | null): GateReport {
  return ledger ? applyAcceptances(report, ledger.acceptances) : report;
}
