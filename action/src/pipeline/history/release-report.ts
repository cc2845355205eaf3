/**
 * The release report from the run history (`perf-gate report release`, and
 * the action's `mode: release` with `history:` in perf-gate.yml). Reads the
 * runs of the previous release and of the candidate (several runs of a commit
 * are pooled as baseline selection pools them: store/history/baseline.ts),
 * compares them with the gate as `compare` does, and finds the change points
 * of the runs between the two on the main line (gate/change-rows.ts). The
 * assembly is pure (gate/release-model.ts); this file only reads.
 */
import { changesOfRuns, type ChangeRow } from '../../gate/change-rows.js';
import { assembleRelease, type ReleaseModel } from '../../gate/release-model.js';
import type { GateReport } from '../../gate/index.js';
import { InputError, type Budgets } from '../../model/index.js';
import { DEFAULT_CHANGE_POINT_OPTIONS } from '../../stats/change-points.js';
import {
  DEFAULT_DRIFT_WINDOW,
  DEFAULT_TAG_PATTERN,
  firstParentRange,
  isAncestor,
  previousReleaseTag,
  resolveCommit,
  selectBaseline,
  type BaselineSelection,
  type HistoryEntry,
  type HistoryStore,
} from '../../store/history/index.js';
import { gate, gateOptions } from '../gate.js';

export { RELEASE_SCHEMA, type ReleaseModel } from '../../gate/release-model.js';

/** The change points of one testbed's runs from one commit to a later one on its first-parent line (both ends included). */
export interface ChangesBetween {
  changes: ChangeRow[];
  /** The first-parent commits from `from` to `to`, oldest first. */
  chain: string[];
  /** Runs the series were made of. */
  runs: number;
}

/** Reads the runs of `testbed` whose commits lie on the first-parent line from `from` to `to`, in that order, and finds their change points. */
export async function changesBetween(
  history: HistoryStore,
  repo: string,
  from: string,
  to: string,
  testbed: string,
  listed?: readonly HistoryEntry[],
): Promise<ChangesBetween> {
  const chain = [from, ...(await firstParentRange(repo, from, to))];
  const position = new Map(chain.map((c, i) => [c, i]));
  const all = listed ?? (await history.list({ testbed }));
  // Commit order, not creation order: a series is the main line as it was built. Re-runs of a commit in run order.
  const entries = all
    .filter((e) => e.testbed === testbed && position.has(e.commit))
    .sort((a, b) => position.get(a.commit)! - position.get(b.commit)! || (a.runId < b.runId ? -1 : 1));
  const usable = await history.readUsable(entries);
  return { changes: changesOfRuns(testbed, usable.entries, usable.sets, () => true, DEFAULT_CHANGE_POINT_OPTIONS), chain, runs: usable.entries.length };
}

export interface ReleaseFromHistoryRequest {
  history: HistoryStore;
  /** The project's repository: the refs are resolved and the first-parent line is walked there. */
  repo: string;
  /** The previous release (`--from`): a tag, a ref or a commit. */
  from: string;
  /** The candidate (`--to`). */
  to: string;
  /** Whose runs; default: the one testbed that has runs of both commits. */
  testbed?: string;
  budgets: Budgets;
  /** Runs the between-run drift is learned from (perf-gate.yml's `drift-runs:`); default 20. */
  driftRuns?: number;
  repositoryUrl: string | null;
}

export interface ReleaseFromHistory {
  model: ReleaseModel;
  /** Where each side came from, in words, for the command's first lines. */
  previousSource: string;
  candidateSource: string;
}

async function commitOf(repo: string, ref: string, flag: string, what: string): Promise<string> {
  const commit = await resolveCommit(repo, ref);
  if (commit === undefined)
    throw new InputError(
      flag,
      `${JSON.stringify(ref)} names no commit in ${repo}; expected ${what} (a tag, a branch or a commit; \`git tag --list\` shows the tags)`,
    );
  return commit;
}

/** What to say when a commit has no run: which commit, where, and how to record one. */
function noRunMessage(ref: string, commit: string, testbed: string | null, history: HistoryStore): string {
  const on = testbed !== null ? ` on testbed ${testbed}` : '';
  return `${ref} (${commit.slice(0, 12)}) has no run${on} in ${history.description}; record one: check out ${ref}, measure it and run \`perf-gate history add --commit ${commit.slice(0, 12)}${testbed !== null ? ` --testbed ${testbed}` : ''} RESULTS\` (or \`perf-gate run --mode main\` there, or the action with mode: main on that commit); \`perf-gate history list\` shows the runs`;
}

/** The testbed to read: the one given, else the only one with runs of both commits. */
function chooseTestbed(
  entries: readonly HistoryEntry[],
  sides: { flag: string; ref: string; commit: string }[],
  given: string | undefined,
  history: HistoryStore,
): string {
  const bedsOf = (commit: string): Set<string> => new Set(entries.filter((e) => e.commit === commit).map((e) => e.testbed));
  for (const side of sides) {
    const beds = bedsOf(side.commit);
    if (beds.size === 0 || (given !== undefined && !beds.has(given))) {
      const elsewhere = given !== undefined && beds.size > 0 ? ` (it has runs on ${[...beds].join(', ')}; give --testbed)` : '';
      throw new InputError(side.flag, `${noRunMessage(side.ref, side.commit, given ?? null, history)}${elsewhere}`);
    }
  }
  if (given !== undefined) return given;
  const [first, second] = sides.map((s) => bedsOf(s.commit));
  const both = [...first!].filter((t) => second!.has(t));
  if (both.length === 1) return both[0]!;
  if (both.length === 0)
    throw new InputError(
      '--testbed',
      `${sides[0]!.ref} has runs on ${[...first!].join(', ')} and ${sides[1]!.ref} on ${[...second!].join(', ')}: no testbed has runs of both, and runs of two machines are not compared`,
    );
  throw new InputError('--testbed', `both commits have runs on testbeds ${both.join(', ')}; give --testbed ID to choose one`);
}

function runsText(selection: Extract<BaselineSelection, { found: true }>, name: string, testbed: string, history: HistoryStore): string {
  const n = selection.runs.length;
  return `${n === 1 ? 'the run' : `the ${n} runs (pooled)`} of ${name} (${selection.commit.slice(0, 12)}) on testbed ${testbed} in ${history.description}`;
}

/**
 * The release report from the history: `from`'s runs as the baseline (with
 * the drift learned from the runs before it, as a release baseline is),
 * `to`'s runs as the current results, the gate with the budgets, and the
 * change points between them. Every unusable input is an InputError naming
 * the flag: a ref that names no commit, a commit without a run, a `from` that
 * is not an ancestor of `to`.
 */
export async function releaseFromHistory(request: ReleaseFromHistoryRequest): Promise<ReleaseFromHistory> {
  const { history, repo } = request;
  const from = await commitOf(repo, request.from, '--from', 'the previous release');
  const to = await commitOf(repo, request.to, '--to', 'the release candidate');
  if (from === to)
    throw new InputError(
      '--to',
      `${request.to} and --from ${request.from} name the same commit (${from.slice(0, 12)}); expected a later commit than the previous release`,
    );
  if (!(await isAncestor(repo, from, to)))
    throw new InputError(
      '--from',
      `${request.from} (${from.slice(0, 12)}) is not an ancestor of ${request.to} (${to.slice(0, 12)}); expected the previous release on the candidate's line`,
    );
  const all = await history.list();
  const testbed = chooseTestbed(
    all,
    [
      { flag: '--from', ref: request.from, commit: from },
      { flag: '--to', ref: request.to, commit: to },
    ],
    request.testbed,
    history,
  );
  // The selection of a baseline, held to the one commit (distance 0): its runs pooled, the drift learned from the runs before it.
  const select = (commit: string, driftWindow: number): Promise<BaselineSelection> =>
    selectBaseline(history, { repo, testbed, head: to, from: { commit }, maxDistance: 0, driftWindow });
  const previous = await select(from, request.driftRuns ?? DEFAULT_DRIFT_WINDOW);
  if (!previous.found) throw new InputError('--from', noRunMessage(request.from, from, testbed, history));
  const candidate = await select(to, 0);
  if (!candidate.found) throw new InputError('--to', noRunMessage(request.to, to, testbed, history));
  const previousSource = runsText(previous, request.from, testbed, history);
  const candidateSource = runsText(candidate, request.to, testbed, history);
  const report = gate({
    baseline: previous.pooled.set,
    current: candidate.pooled.set,
    budgets: request.budgets,
    options: gateOptions('flag'),
    baselineInput: '--from',
    baselineSource: previousSource,
    currentSource: candidateSource,
    driftRuns: previous.driftRuns,
  });
  const between = await changesBetween(history, repo, from, to, testbed, all);
  const model = assembleRelease({
    report,
    previous: { name: request.from, commit: from, runs: previous.runs.length },
    candidate: { name: request.to, commit: to, runs: candidate.runs.length },
    testbed,
    changes: between.changes,
    historyRuns: between.runs,
    chain: between.chain,
    repositoryUrl: request.repositoryUrl,
  });
  return { model, previousSource, candidateSource };
}

/** The tag a ref names (refs/tags/v1.2.0 → v1.2.0), else undefined. */
export function tagOfRef(ref: string): string | undefined {
  return /^refs\/tags\/(.+)$/.exec(ref)?.[1];
}

export interface RunRelease {
  /** The ref the workflow runs for (refs/tags/v1.1.0). */
  ref: string;
  /** The commit measured; default HEAD of the config's repository. */
  sha: string;
  repositoryUrl: string | null;
}

/**
 * The release model of a measured run (the action's `mode: release`, asked by
 * RunPlan.release): the gate's report, and with the run's history (its
 * store, opened by the run, and the repository its commits are in) the
 * change points since the previous release tag. The verdict is already decided, so a
 * history that cannot be read costs only that section: the note says why.
 */
export async function releaseOfRun(
  report: GateReport,
  history: { store: HistoryStore; repo: string } | null,
  run: RunRelease,
): Promise<{ model: ReleaseModel; note: string | null }> {
  const tag = tagOfRef(run.ref);
  const head = run.sha || report.current.commit || 'HEAD';
  const candidate = { name: tag ?? (run.sha ? run.sha.slice(0, 12) : 'this run'), commit: run.sha || report.current.commit || null, runs: null };
  const plain = (note: string | null): { model: ReleaseModel; note: string | null } => ({
    model: assembleRelease({ report, candidate, repositoryUrl: run.repositoryUrl }),
    note,
  });
  if (!history) return plain(null);
  const testbed = report.baseline?.testbed ?? report.current.testbed;
  if (testbed === undefined) return plain('change points not shown: the runs name no testbed');
  try {
    const previous = await previousReleaseTag(history.repo, head, DEFAULT_TAG_PATTERN);
    if (previous === undefined) return plain(`change points not shown: no release tag matching ${DEFAULT_TAG_PATTERN} before ${head.slice(0, 12)}`);
    const headCommit = (await resolveCommit(history.repo, head)) ?? head;
    const between = await changesBetween(history.store, history.repo, previous.commit, headCommit, testbed);
    return {
      model: assembleRelease({
        report,
        previous: { name: previous.tag, commit: previous.commit, runs: null },
        candidate,
        testbed,
        changes: between.changes,
        historyRuns: between.runs,
        chain: between.chain,
        repositoryUrl: run.repositoryUrl,
      }),
      note: null,
    };
  } catch (error) {
    return plain(`change points not shown: ${(error as Error).message}`);
  }
}
