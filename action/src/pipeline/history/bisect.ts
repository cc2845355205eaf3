/**
 * `perf-gate bisect`: narrows a change between two commits to the commit that
 * caused it. Measures bad against good (interleaved A/B, the same
 * compareInterleaved as `run --ab`), then binary-searches the
 * first-parent path, each step a midpoint measured against good. The
 * decisions (which commit next, which side a step is on, when to stop) are
 * gate/bisect-steps.ts's; this file checks commits out, measures and records.
 */
import { join } from 'node:path';
import type { PerfGateConfig, SuiteConfig } from '../../config/perf-gate-config.js';
import {
  afterStep,
  BISECT_SCHEMA,
  classifyChange,
  classifyStep,
  firstStep,
  isChange,
  roundsStatus,
  stepOf,
  MAX_ATTEMPTS,
  type BisectCommit,
  type BisectNext,
  type BisectOutcome,
  type BisectReport,
  type BisectStep,
  type StepClassification,
  type StepMeasure,
} from '../../gate/bisect-steps.js';
import { decide, type VerdictRow } from '../../gate/index.js';
import { InputError, nearestName, rowKey, type Budgets } from '../../model/index.js';
import type { Classifier } from '../../runner/ab.js';
import { escapeTerminal } from '../../report/escape-terminal.js';
import { commitSummary, firstParentPath, isAncestor } from '../../runner/commits.js';
import { addBaseWorktree, headCommit, repositoryRoot } from '../../runner/worktree.js';
import { compareInterleaved } from '../interleaved.js';
import type { RunContext } from '../run-deps.js';
import { realpathOrSelf } from '../../store/index.js';

export { BISECT_SCHEMA, commitsMeasured, type BisectReport, type BisectOutcome, type BisectStep } from '../../gate/bisect-steps.js';
export { bisectMarkdown, bisectText } from '../../report/bisect.js';

/** What to bisect, in the run's context (its cleanups remove the worktrees if the process is interrupted). */
export interface BisectRequest extends RunContext {
  good: string;
  bad: string;
  benchmark: string;
  /** Default `time`. */
  metric?: string;
  /** The suite that reports the benchmark; default: the suite its id names (`<suite>/…`). */
  suite?: string;
  config: PerfGateConfig;
  budgets: Budgets;
  /** Each step's harness outputs, logs and ResultSets go to `<outDir>/step-N-<sha>/`. */
  outDir: string;
}

/** The metric bisect follows when --metric is not given. */
export const DEFAULT_BISECT_METRIC = 'time';

/** Does benchmark `id` belong to suite `name`? Ids are `<suite>/<name>`, or the suite's own name for a failed suite. */
function belongsTo(id: string, name: string): boolean {
  return id.startsWith(`${name}/`) || id === name || id.startsWith(`${name}[`);
}

/**
 * The one suite bisect runs: --suite, else the suite the benchmark's id
 * names. Only that suite is measured, so each step costs one suite's rounds.
 */
export function bisectSuite(config: PerfGateConfig, benchmark: string, suiteName: string | undefined): SuiteConfig {
  const names = config.suites.map((s) => s.name);
  let suite: SuiteConfig | undefined;
  if (suiteName !== undefined) {
    suite = config.suites.find((s) => s.name === suiteName);
    if (!suite) {
      const near = nearestName(suiteName, names);
      throw new InputError('--suite', `no suite "${suiteName}" in ${config.file}${near ? `; did you mean "${near}"?` : ''} (suites: ${names.join(', ')})`);
    }
    if (!belongsTo(benchmark, suite.name))
      throw new InputError('--benchmark', `"${benchmark}" is not a benchmark of suite "${suite.name}": its ids are ${suite.name}/<name>`);
  } else {
    // The longest name wins, so suite "a/b"-like prefixes cannot shadow each other.
    suite = [...config.suites].sort((a, b) => b.name.length - a.name.length).find((s) => belongsTo(benchmark, s.name));
    if (!suite) {
      throw new InputError(
        '--benchmark',
        `"${benchmark}" is not in any suite of ${config.file}: ids are <suite>/<name>, and the suites are ${names.join(', ')} (give the full id, e.g. ${names[0] ?? 'suite'}/<name>)`,
      );
    }
  }
  if (suite.commands) {
    const ids = suite.commands.map((c) => `${suite.name}/${c.name}`);
    if (!ids.includes(benchmark)) {
      const near = nearestName(benchmark, ids);
      throw new InputError(
        '--benchmark',
        `suite "${suite.name}" has no command "${benchmark.slice(suite.name.length + 1)}"${near ? `; did you mean "${near}"?` : ''} (its benchmarks: ${ids.join(', ')})`,
      );
    }
  }
  if (!suite.measure.time)
    throw new InputError(
      '--suite',
      `suite "${suite.name}" only counts; bisect times a suite in interleaved rounds, and counts do not drift (compare them with a stored baseline instead)`,
    );
  return suite;
}

/** A ref as a full commit id, or an InputError naming the flag. */
function resolveCommit(repo: string, ref: string, flag: string): string {
  const sha = headCommit(repo, ref);
  if (!sha)
    throw new InputError(flag, `"${ref}" is not a commit in ${repo}; expected a commit, branch or tag (fetch it first: actions/checkout with fetch-depth: 0)`);
  return sha;
}

export interface BisectRange {
  repo: string;
  good: BisectCommit;
  bad: BisectCommit;
  /** The first-parent path good..bad, oldest first; the last is bad. */
  path: BisectCommit[];
}

/** Resolves --good and --bad and the first-parent path between them; InputErrors name the flag and what was expected. */
export function bisectRange(dir: string, good: string, bad: string): BisectRange {
  const repo = realpathOrSelf(repositoryRoot(dir, '--good'));
  const goodSha = resolveCommit(repo, good, '--good');
  const badSha = resolveCommit(repo, bad, '--bad');
  if (goodSha === badSha) throw new InputError('--bad', `"${bad}" is the same commit as --good "${good}" (${goodSha.slice(0, 12)}); expected a later commit`);
  if (!isAncestor(repo, goodSha, badSha))
    throw new InputError(
      '--good',
      `"${good}" (${goodSha.slice(0, 12)}) is not an ancestor of --bad "${bad}" (${badSha.slice(0, 12)}); expected an older commit of bad's history`,
    );
  const path = firstParentPath(repo, goodSha, badSha);
  if (!path)
    throw new InputError(
      '--good',
      `"${good}" (${goodSha.slice(0, 12)}) is not on the first-parent history of "${bad}" (it came in through a merged branch); give the merge's first parent, or a commit of the branch as --bad`,
    );
  return { repo, good: commitSummary(repo, goodSha), bad: path[path.length - 1]!, path };
}

/** The suite for an attempt of a step: attempt 2 on, with more rounds. */
function withRounds(suite: SuiteConfig, attempt: number): SuiteConfig {
  if (attempt === 1) return suite;
  // "More rounds": twice the first, the maximum and the confirmation rounds.
  const ab = suite.ab;
  return { ...suite, ab: { ...ab, rounds: ab.rounds * 2, maxRounds: ab.maxRounds * 2, confirmRounds: ab.confirmRounds * 2 } };
}

/**
 * The A/B rounds' classifier for a bisect step: only the followed benchmark ×
 * metric decides whether a step needs more rounds or confirmation (the
 * suite's other benchmarks are not the question), and a step already placed
 * needs no more (gate/bisect-steps.ts roundsStatus).
 */
function bisectClassifier(budgets: Budgets, key: string, change: StepMeasure | null): Classifier {
  return (base, head) => {
    const row = decide(base, head, budgets).rows.find((r) => rowKey(r.benchmark, r.metric) === key);
    return new Map(row ? [[key, roundsStatus(change, stepOf(row))]] : []);
  };
}

/** The report row of the benchmark × metric, or an InputError naming what the suite did report. */
function rowOf(rows: readonly VerdictRow[], benchmark: string, metric: string, suite: string): VerdictRow {
  const row = rows.find((r) => r.benchmark === benchmark && r.metric === metric);
  if (row) return row;
  const ids = [...new Set(rows.map((r) => r.benchmark))];
  if (!ids.includes(benchmark)) {
    const near = nearestName(benchmark, ids);
    throw new InputError(
      '--benchmark',
      `suite "${suite}" reported no benchmark "${benchmark}"${near ? `; did you mean "${near}"?` : ''} (it reported: ${ids.slice(0, 8).join(', ') || 'nothing'})`,
    );
  }
  const metrics = rows.filter((r) => r.benchmark === benchmark).map((r) => r.metric);
  throw new InputError('--metric', `benchmark "${benchmark}" has no metric "${metric}" (it has: ${metrics.join(', ')})`);
}

/** Finds the commit between good and bad that caused the change of one benchmark × metric; see the module comment. */
export async function bisect(request: BisectRequest): Promise<BisectReport> {
  const metric = request.metric ?? DEFAULT_BISECT_METRIC;
  const suite = bisectSuite(request.config, request.benchmark, request.suite);
  const { repo, good, bad, path } = bisectRange(request.config.dir, request.good, request.bad);
  const steps: BisectStep[] = [];
  const short = (c: BisectCommit): string => c.sha.slice(0, 7);
  const say = (text: string): void => request.write(`perf-gate: bisect: ${text}\n`);
  say(
    `${path.length} commit(s) on the first-parent path ${short(good)}..${short(bad)}; benchmark ${escapeTerminal(request.benchmark)}, metric ${escapeTerminal(metric)}`,
  );

  const goodCheckout = addBaseWorktree(repo, good.sha, '--good');
  request.cleanups.push(() => goodCheckout.remove());
  try {
    let full: StepMeasure | null = null;
    const measure = async (index: number, attempt: number): Promise<VerdictRow> => {
      const commit = path[index - 1]!;
      const step = steps.length + 1;
      say(
        `step ${step}: ${short(commit)} "${escapeTerminal(commit.subject)}" (commit ${index} of ${path.length}${attempt > 1 ? ', again with more rounds' : ''}) against good ${short(good)}`,
      );
      const { report } = await compareInterleaved({
        ...request,
        suites: [withRounds(suite, attempt)],
        // The good end is checked out once and built incrementally at every step; each step's commit gets a worktree of its own.
        base: { dir: goodCheckout.dir, commit: good.sha },
        head: { commit: commit.sha },
        flags: { base: '--good', head: '--bad' },
        // Only the bisected benchmark runs, where its harness can select it: a step costs one benchmark's rounds.
        benchmarks: [request.benchmark],
        outDir: join(request.outDir, `step-${step}-${short(commit)}`),
        classify: bisectClassifier(request.budgets, rowKey(request.benchmark, metric), full),
        // A misspelt --benchmark is said after one round, not after the whole first batch.
        afterFirstRound: (base, head) => void rowOf(decide(base, head, request.budgets).rows, request.benchmark, metric, suite.name),
        decision: { baselineInput: '--good' },
      });
      return rowOf(report.rows, request.benchmark, metric, suite.name);
    };
    const record = (index: number, attempt: number, row: VerdictRow, side: StepClassification): void => {
      steps.push({
        step: steps.length + 1,
        commit: path[index - 1]!,
        index,
        attempt,
        status: row.status,
        change: row.change,
        ci: row.ci,
        ciLevel: row.ciLevel,
        p: row.p,
        side: side.side,
        reason: side.reason,
        rounds: row.current?.n ?? 0,
      });
      say(`step ${steps.length}: ${row.status}${row.change !== null ? `, change ${(row.change * 100).toFixed(1)} %` : ''} → like ${side.side}`);
    };

    // The change itself: bad against good, measured again with more rounds while inconclusive.
    let change: VerdictRow | undefined;
    let changeSide: StepClassification = { side: 'inconclusive', reason: 'cannot-tell' };
    for (let attempt = 1; attempt <= MAX_ATTEMPTS && changeSide.side === 'inconclusive'; attempt++) {
      change = await measure(path.length, attempt);
      changeSide = classifyChange(stepOf(change));
      record(path.length, attempt, change, changeSide);
    }
    const base = {
      schema: BISECT_SCHEMA,
      benchmark: request.benchmark,
      metric,
      unit: change!.unit,
      direction: change!.direction,
      good,
      bad,
      commits: path.length,
      steps,
    } as const;
    if (changeSide.side === 'failed') {
      // `new`: only bad reported it, so good is the end that did not run; `failed` and `missing`: bad is.
      const end = change!.status === 'new' ? { flag: '--good', commit: good } : { flag: '--bad', commit: bad };
      throw new InputError(
        end.flag,
        `benchmark "${request.benchmark}" could not be measured at ${short(end.commit)} (${change!.error?.message ?? change!.status}); bisect needs it to run at both ends. The logs are in ${request.outDir}`,
      );
    }
    if (!isChange(stepOf(change!))) return { ...base, outcome: { kind: 'no-step', status: change!.status } };

    full = stepOf(change!);
    let next: BisectNext = firstStep(path.length);
    while (next.kind === 'measure') {
      const row = await measure(next.index, next.attempt);
      const side = classifyStep(full, stepOf(row));
      record(next.index, next.attempt, row, side);
      next = afterStep(next.search, next.index, next.attempt, side.side);
    }
    const at = path[next.index - 1]!;
    const outcome: BisectOutcome = next.kind === 'found' ? { kind: 'culprit', commit: at } : { kind: next.side, commit: at };
    return { ...base, outcome };
  } finally {
    goodCheckout.remove();
  }
}
