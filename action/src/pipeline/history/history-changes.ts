/**
 * `perf-gate history changes`: reads every run of the history (or of one
 * testbed) and finds the change points of each benchmark × metric series
 * (gate/change-rows.ts).
 */
import { readFileSync } from 'node:fs';
import { againstPrevious } from '../../gate/change-history.js';
import { changesOfRuns, CHANGES_SCHEMA, type ChangesReport } from '../../gate/change-rows.js';
import { compileGlob, InputError } from '../../model/index.js';
import { headCommit } from '../../runner/worktree.js';
import { DEFAULT_CHANGE_POINT_OPTIONS, type ChangePointOptions } from '../../stats/change-points.js';
import { inCommitOrder, type HistoryEntry, type HistoryStore } from '../../store/history/index.js';

export { CHANGES_SCHEMA, type ChangeRow, type ChangesReport } from '../../gate/change-rows.js';
export { changesMarkdown, changesText } from '../../report/changes.js';

export interface ChangesQuery {
  testbed?: string;
  /** The first run to report of a testbed's runs (sinceRun); default all. */
  since?: (entries: readonly HistoryEntry[]) => number;
  /** A benchmark-id glob (`parse/*`). */
  benchmark?: string;
  options?: ChangePointOptions;
  /** An earlier report of the same history (`--previous`): each point says whether it is new or moved, and gone ones are listed. */
  previous?: ChangesReport;
  /** The project's repository: series are ordered by its first-parent line (else by the time runs were recorded). */
  repo?: string;
}

/** Reads the history and finds the change points of every series it holds (or of one testbed, one glob of benchmarks). */
export async function historyChanges(history: HistoryStore, query: ChangesQuery): Promise<ChangesReport> {
  const options = query.options ?? DEFAULT_CHANGE_POINT_OPTIONS;
  const all = await history.list();
  const testbeds = [...new Set(all.map((e) => e.testbed))];
  if (query.testbed !== undefined && !testbeds.includes(query.testbed)) {
    throw new InputError(
      history.description,
      `no runs of testbed ${query.testbed}${testbeds.length ? `; it holds runs of ${testbeds.join(', ')} (give --testbed)` : ''}`,
    );
  }
  const pattern = query.benchmark === undefined ? null : compileGlob(query.benchmark);
  const include = (id: string): boolean => pattern === null || pattern.test(id);
  const report: ChangesReport = { schema: CHANGES_SCHEMA, runs: {}, options, changes: [] };
  for (const testbed of query.testbed !== undefined ? [query.testbed] : testbeds) {
    const ordered = await inCommitOrder(
      query.repo,
      all.filter((e) => e.testbed === testbed),
    );
    const { entries, sets } = await history.readUsable(ordered.entries);
    report.runs[testbed] = entries.length;
    (report.order ??= {})[testbed] = ordered.order;
    const rows = changesOfRuns(testbed, entries, sets, include, options, query.since ? query.since(entries) : 0);
    if (query.previous) {
      const first = query.since ? query.since(entries) : 0;
      const earlier = query.previous.changes.filter((c) => c.testbed === testbed && include(c.benchmark));
      const runIndex = new Map(entries.map((e, i) => [e.runId, i] as const));
      const compared = againstPrevious(rows, earlier, runIndex);
      report.changes.push(...compared.rows);
      (report.gone ??= []).push(...compared.gone.filter((g) => runIndex.get(g.runId)! >= first));
    } else {
      report.changes.push(...rows);
    }
  }
  return report;
}

/** An earlier `history changes --json` report, checked enough that its points can be compared. */
export function readPreviousChanges(path: string): ChangesReport {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    throw new InputError(path, e.code === 'ENOENT' ? 'no such file (--previous takes the JSON that history changes --json wrote)' : `not JSON: ${e.message}`);
  }
  const report = data as Partial<ChangesReport> | null;
  if (report?.schema !== CHANGES_SCHEMA || !Array.isArray(report.changes)) {
    throw new InputError(path, `expected the JSON of history changes --json (schema "${CHANGES_SCHEMA}")`, undefined, 'schema');
  }
  report.changes.forEach((c, i) => {
    const ok =
      typeof c === 'object' &&
      c !== null &&
      ['testbed', 'benchmark', 'metric', 'runId', 'commit'].every((k) => typeof (c as unknown as Record<string, unknown>)[k] === 'string') &&
      typeof c.regression === 'boolean';
    if (!ok)
      throw new InputError(path, 'expected testbed, benchmark, metric, runId and commit (strings) and regression (true or false)', undefined, `changes[${i}]`);
  });
  return report as ChangesReport;
}

/**
 * --since as the first run to report of a testbed's runs: those created on or
 * after a DATE (YYYY-MM-DD), or those after the last run of the commit a REF
 * names in `repo`.
 */
export function sinceRun(since: string, repo: string): (entries: readonly HistoryEntry[]) => number {
  if (/^\d{4}-\d{2}-\d{2}/.test(since)) {
    const date = new Date(since);
    if (Number.isNaN(date.getTime())) throw new InputError('--since', `expected a commit, a ref or a date such as 2026-01-31, found "${since}"`);
    return (entries) => {
      const at = entries.findIndex((e) => new Date(e.created) >= date);
      return at < 0 ? entries.length : at;
    };
  }
  const commit = headCommit(repo, since);
  if (!commit) throw new InputError('--since', `${JSON.stringify(since)} names no commit in ${repo} (give a commit, a ref or a date)`);
  return (entries) => {
    const last = entries.map((e) => e.commit).lastIndexOf(commit);
    if (last < 0)
      throw new InputError(
        '--since',
        `${since} (${commit.slice(0, 12)}) has no run in the history on testbed ${entries[0]?.testbed ?? '?'}; perf-gate history list shows the runs`,
      );
    return last + 1;
  };
}
