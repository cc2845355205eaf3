/**
 * `perf-gate dashboard`: reads every run of the history (or of one
 * testbed), finds each series' change points (gate/change-rows.ts), reads
 * the release tags and commit subjects of the runs' commits from the
 * project's repository, and writes a static site into a folder: index.html,
 * data.js (the model), the page's script and style, and uPlot. Nothing is
 * loaded from the network, so the folder works from file://, as an
 * artifact or on GitHub Pages.
 */
import { join } from 'node:path';
import { changesOfRuns } from '../../gate/change-rows.js';
import { compileGlob, InputError } from '../../model/index.js';
import { dashboardModel, type DashboardModel, type DashboardTestbedInput } from '../../report/dashboard-data.js';
import { dashboardDataScript, DASHBOARD_FILES, renderDashboardHtml } from '../../report/dashboard-page.js';
import { DEFAULT_CHANGE_POINT_OPTIONS, type ChangePointOptions } from '../../stats/change-points.js';
import { DEFAULT_TAG_PATTERN, git, GitCommandError, inCommitOrder, type HistoryStore } from '../../store/history/index.js';
import { dashboardAssets } from './dashboard-assets.js';
import { writeOutputFile } from '../output-files.js';

export interface DashboardRequest {
  history: HistoryStore;
  /** The project's repository: where release tags and commit subjects are read. */
  repo: string;
  /** The output folder (absolute; prepared by the caller). */
  out: string;
  /** Only this testbed's runs. */
  testbed?: string;
  /** Release tags: a glob (default `v*`, as releases choose their baseline). */
  tagPattern?: string;
  /** Time the page says it was generated. */
  now: Date;
  options?: ChangePointOptions;
}

export interface DashboardWritten {
  model: DashboardModel;
  /** The files written, relative to the output folder. */
  files: string[];
  /** Why tags and subjects are missing, when git could not read them (not a repository). */
  gitNote: string | null;
}

/** Reads the history and git, and writes the dashboard's files into `out`. */
export async function writeDashboard(request: DashboardRequest): Promise<DashboardWritten> {
  const { history } = request;
  const all = await history.list();
  if (all.length === 0) throw new InputError(history.description, 'holds no runs to chart; record runs with perf-gate history add (or run --mode main) first');
  const testbeds = [...new Set(all.map((e) => e.testbed))];
  if (request.testbed !== undefined && !testbeds.includes(request.testbed)) {
    throw new InputError(
      '--testbed',
      `the history ${history.description} holds no runs of testbed ${request.testbed}; it holds runs of ${testbeds.join(', ')}`,
    );
  }
  const options = request.options ?? DEFAULT_CHANGE_POINT_OPTIONS;
  const inputs: DashboardTestbedInput[] = [];
  for (const id of request.testbed !== undefined ? [request.testbed] : testbeds) {
    const ordered = await inCommitOrder(
      request.repo,
      all.filter((e) => e.testbed === id),
    );
    const { entries, sets } = await history.readUsable(ordered.entries);
    inputs.push({ id, entries, sets, changes: changesOfRuns(id, entries, sets, () => true, options) });
  }
  const tagPattern = request.tagPattern ?? DEFAULT_TAG_PATTERN;
  const commits = [...new Set(inputs.flatMap((t) => t.entries.map((e) => e.commit)))];
  const { tags, subjects, note } = await commitInfo(request.repo, commits, tagPattern);
  const model = dashboardModel({ generated: request.now.toISOString(), tagPattern, testbeds: inputs, tags, subjects });
  const assets = dashboardAssets();
  const files: [string, string][] = [
    ['index.html', renderDashboardHtml(model)],
    [DASHBOARD_FILES.data, dashboardDataScript(model)],
    [DASHBOARD_FILES.script, assets.script],
    [DASHBOARD_FILES.style, assets.style],
    [DASHBOARD_FILES.uplotJs, assets.uplotJs],
    [DASHBOARD_FILES.uplotCss, assets.uplotCss],
  ];
  for (const [name, text] of files) writeOutputFile(request.out, join(request.out, name), text, '--out');
  return { model, files: files.map(([name]) => name), gitNote: note };
}

interface CommitInfo {
  tags: Map<string, string[]>;
  subjects: Map<string, string>;
  note: string | null;
}

/**
 * The release tags pointing at the runs' commits (an annotated tag by the
 * commit it peels to) and the commits' subject lines. A commit the
 * repository does not have (a shallow clone, an imported history) simply
 * has neither; a folder that is no git repository has none at all, and the
 * note says so.
 */
async function commitInfo(repo: string, commits: readonly string[], tagPattern: string): Promise<CommitInfo> {
  const tags = new Map<string, string[]>();
  const subjects = new Map<string, string>();
  try {
    const pattern = compileGlob(tagPattern);
    const listed = (await git(repo, ['for-each-ref', '--format=%(refname:strip=2)%00%(objectname)%00%(*objectname)', 'refs/tags'])).stdout.toString('utf8');
    const wanted = new Set(commits);
    for (const line of listed.split('\n')) {
      const [name, object, peeled] = line.split('\0');
      const commit = peeled || object;
      if (!name || !commit || !wanted.has(commit) || !pattern.test(name)) continue;
      tags.set(
        commit,
        [...(tags.get(commit) ?? []), name].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })),
      );
    }
    const log = (
      await git(repo, ['log', '--no-walk=unsorted', '--ignore-missing', '--stdin', '--format=%H%x00%s'], { input: commits.map((c) => `${c}\n`).join('') })
    ).stdout.toString('utf8');
    for (const line of log.split('\n')) {
      const [commit, subject] = line.split('\0');
      if (commit && subject !== undefined) subjects.set(commit, subject);
    }
    return { tags, subjects, note: null };
  } catch (error) {
    if (!(error instanceof GitCommandError)) throw error;
    return { tags, subjects, note: `no release tags or commit subjects: git could not read ${repo} (${error.stderr.trim().split('\n')[0] ?? 'no message'})` };
  }
}
