/**
 * The one interleaved comparison, for `run --ab`, the second stage, main's
 * alert confirmation and every bisect step: named benchmarks of two commits
 * measured side by side and decided paired. It owns everything the four
 * share:
 *
 * - the checkouts: each side is a commit checked out in a temporary
 *   worktree (removed when done, and on interruption), a checkout the caller
 *   keeps (bisect's good end, built once for every step), or the working
 *   checkout itself (the pull request's head);
 * - the rounds (measureAbBetween): the build on both sides, only the named
 *   benchmarks in short rounds where the harness can select them, the
 *   adaptive extension, the fresh rounds that confirm a regression, all
 *   within the deadline (`confirm-time-cap`);
 * - the paired decision (the gate, with both sides from the same config);
 * - the profile of the confirmed regressions, while both checkouts exist.
 *
 * What differs between the callers is data: which sides, which benchmarks,
 * how many rounds, how a row counts as open (bisect's classifier), and what
 * the caller makes of the decision before it is profiled (the second stage
 * joins it with the screen).
 */
import { join, relative } from 'node:path';
import type { PerfGateConfig, SuiteConfig } from '../config/perf-gate-config.js';
import type { GateReport } from '../gate/index.js';
import { InputError, type Budgets, type ResultSet } from '../model/index.js';
import type { Classifier } from '../runner/ab.js';
import { addBaseWorktree, headCommit, repositoryRoot, type BaseCheckout } from '../runner/worktree.js';
import { realpathOrSelf } from '../store/index.js';
import { gate, type GateOptions } from './gate.js';
import { measureAbBetween } from './measure.js';
import { profileConfirmedRegressions } from './profile.js';
import type { RunContext } from './run-deps.js';

/** One side of the comparison. */
export type ComparedSide =
  /** This commit (or ref), checked out in a temporary worktree for the comparison. */
  | { commit: string }
  /** A checkout the caller made and removes (its root), holding `commit`. */
  | { dir: string; commit: string }
  /** The working checkout itself: the repository of perf-gate.yml, as it is. */
  | { working: true };

/** The run's context (the checkouts' cleanups, the profiles' published folder) and what to compare. */
export interface ComparisonRequest extends RunContext {
  config: PerfGateConfig;
  /** The suites to measure, as perf-gate.yml has them (workdirs in the working checkout). */
  suites: readonly SuiteConfig[];
  base: ComparedSide;
  head: ComparedSide;
  /** The flags or inputs that named the two commits, blamed when one is not there; default `--ab`. */
  flags?: { base: string; head: string };
  /** Only these benchmark ids run, where each suite's harness can select them (runner/select-benchmarks.ts); absent: the suites run whole. */
  benchmarks?: readonly string[];
  /** Catch2's test case of each of those benchmarks, where the results that named them say (runner/select-benchmarks.ts). */
  testCases?: ReadonlyMap<string, string>;
  outDir: string;
  budgets: Budgets;
  /** The gate's options and labels for the paired decision. */
  decision: { options?: GateOptions; baselineInput: string; currentSource?: string };
  /** Which rows are still open, for the adaptive rounds; default: the gate's own decision. */
  classify?: Classifier;
  /** See AbContext.afterFirstRound. */
  afterFirstRound?: (base: ResultSet, head: ResultSet) => void;
  /** `performance.now()` after which nothing may run. */
  deadline?: number;
  /**
   * What the caller makes of the paired decision before it is profiled
   * (null: the head side measured nothing, as when the base did not build);
   * default: the decision as it is.
   */
  finish?: (decided: GateReport | null, measured: ComparisonMeasurement) => GateReport;
  /** Profile the confirmed regressions of suites with `profile:` (of `suites`) into `<outDir>/profile/`. Absent: no profile. */
  profile?: { suites: readonly SuiteConfig[]; outDir: string };
  /** Told where the two sides were checked out, before anything is built. */
  opened?: (sides: { base: { dir: string; commit: string | undefined }; head: { dir: string; commit: string | undefined } }) => void;
}

/** What the rounds measured: both sides, the confirmations, the rounds, the suites that ran whole and why. */
export type ComparisonMeasurement = Awaited<ReturnType<typeof measureAbBetween>>;

export interface Comparison {
  measured: ComparisonMeasurement;
  /** The commits the two sides held. */
  commits: { base: string | undefined; head: string | undefined };
  /** The paired decision, finished by the caller, with its profiles. */
  report: GateReport;
}

/**
 * A side's commit could not be checked out (not in a shallow clone, a bad
 * ref): the InputError naming the flag that named it, with the side and the
 * commit, so the second stage can say why its suspects were not measured.
 */
export class MissingCommitError extends InputError {
  constructor(
    readonly side: 'base' | 'head',
    readonly commit: string,
    cause: InputError,
  ) {
    super(cause.file, cause.detail, cause.line, cause.key);
  }
}

interface OpenSide {
  dir: string;
  commit: string | undefined;
  remove(): void;
}

function open(side: ComparedSide, which: 'base' | 'head', repo: string, flag: string, ctx: Pick<RunContext, 'cleanups'>): OpenSide {
  if ('working' in side) return { dir: repo, commit: headCommit(repo), remove: () => undefined };
  if ('dir' in side) return { dir: side.dir, commit: side.commit, remove: () => undefined };
  let checkout: BaseCheckout;
  try {
    checkout = addBaseWorktree(repo, side.commit, flag);
  } catch (error) {
    if (error instanceof InputError) throw new MissingCommitError(which, side.commit, error);
    throw error;
  }
  ctx.cleanups.push(() => checkout.remove());
  return { dir: checkout.dir, commit: checkout.commit, remove: () => checkout.remove() };
}

/** The suite a benchmark came from: the measured run says; else the suite its id names (`<suite>/…`). */
export function suiteOf(benchmark: string, measured: ResultSet, suites: readonly SuiteConfig[]): SuiteConfig | undefined {
  const named = measured.benchmarks.find((b) => b.id === benchmark)?.suite;
  return suites.find((s) => s.name === named) ?? suites.find((s) => benchmark.startsWith(`${s.name}/`));
}

/** Measures the named benchmarks of two commits in interleaved rounds and decides them paired; see the module comment. */
export async function compareInterleaved(request: ComparisonRequest): Promise<Comparison> {
  const repo = realpathOrSelf(repositoryRoot(request.config.dir));
  const sides: OpenSide[] = [];
  try {
    const base = open(request.base, 'base', repo, request.flags?.base ?? '--ab', request);
    sides.push(base);
    const head = open(request.head, 'head', repo, request.flags?.head ?? '--ab', request);
    sides.push(head);
    request.opened?.({ base, head });
    // The suites' workdirs, mapped into the head side's checkout.
    const suites = request.suites.map((s) => ({ ...s, workdir: join(head.dir, relative(repo, realpathOrSelf(s.workdir))) }));
    const measured = await measureAbBetween({
      config: request.config,
      suites,
      ...(request.benchmarks ? { benchmarks: request.benchmarks } : {}),
      ...(request.testCases ? { testCases: request.testCases } : {}),
      checkouts: { base: base.dir, head: head.dir },
      commits: { base: base.commit, head: head.commit },
      outDir: request.outDir,
      budgets: request.budgets,
      ...(request.classify ? { classify: request.classify } : {}),
      ...(request.afterFirstRound ? { afterFirstRound: request.afterFirstRound } : {}),
      ...(request.deadline !== undefined ? { deadline: request.deadline } : {}),
      env: request.env,
      write: request.write,
      now: request.now,
      deps: request.deps,
      ...(request.groups ? { groups: true } : {}),
    });
    const decide = (): GateReport =>
      gate({
        baseline: measured.base,
        current: measured.head,
        budgets: request.budgets,
        ...(request.decision.options ? { options: request.decision.options } : {}),
        confirmations: measured.confirmations,
        baselineInput: request.decision.baselineInput,
        ...(request.decision.currentSource ? { currentSource: request.decision.currentSource } : {}),
        sameConfig: true,
      });
    // A base that did not build leaves the head side without rounds too: a caller that finishes the decision gets nothing to gate (null) and says why.
    const finished = request.finish ? request.finish(measured.head.benchmarks.length === 0 ? null : decide(), measured) : decide();
    // While both checkouts are still there: a confirmed regression's profile needs both sides.
    const profile = request.profile;
    const report = profile
      ? await profileConfirmedRegressions(
          {
            report: finished,
            config: request.config,
            suiteOf: (benchmark) => suiteOf(benchmark, measured.head, profile.suites),
            checkouts: { base: base.dir, head: head.dir },
            outDir: profile.outDir,
          },
          request,
        )
      : finished;
    return { measured, commits: { base: base.commit, head: head.commit }, report };
  } finally {
    for (const side of sides) side.remove();
  }
}
