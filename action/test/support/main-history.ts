/**
 * A main branch with a recorded history, for the action's mode-main tests: a
 * git repository with one commit per run, each run appended to the history
 * folder that perf-gate.yml names, at the levels a test chooses.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultSet } from '../../src/model/index.js';
import { gitSync, openFolder, workRepo } from './history.js';

/** Runs are created after their commits (the history looks for a commit's runs from a day before its date on), so the clock starts now. */
const T0 = Date.now();

/** One run's results: five samples around each level (milliseconds), created `minute` minutes after T0. */
export function mainRun(commit: string, minute: number, levels: Record<string, number>): ResultSet {
  return {
    schema: 'perf-gate/results@1',
    commit,
    ref: 'refs/heads/main',
    created: new Date(T0 + minute * 60_000).toISOString(),
    testbed: { id: 'bench-1' },
    benchmarks: Object.entries(levels).map(([id, level]) => ({
      id,
      status: 'ok' as const,
      metrics: { time: { unit: 's', direction: 'lower' as const, samples: [0.995, 1, 1.005, 0.998, 1.002].map((f) => f * level * 1e-3) } },
    })),
  };
}

export interface Main {
  ws: string;
  commits: string[];
  /** Level of scan/parse and scan/stable at run i. */
  levels: (i: number) => Record<string, number>;
}

/** A workspace in `root` whose main has `n` commits, each with a run in the history folder. */
export async function mainWithHistory(root: string, name: string, n: number, parse: number[], stable: number[]): Promise<Main> {
  const ws = join(root, name);
  workRepo(ws);
  writeFileSync(join(ws, 'perf-gate.yml'), 'version: 1\nhistory:\n  folder: history\nsuites:\n  - name: scan\n    run: "true"\n');
  const store = openFolder(join(ws, 'history'));
  const commits: string[] = [];
  const main: Main = { ws, commits, levels: (i) => ({ 'scan/parse': parse[i]!, 'scan/stable': stable[i]! }) };
  for (let i = 0; i < n; i++) {
    gitSync(ws, ['commit', '-q', '--allow-empty', '-m', `commit ${i}`]);
    commits.push(gitSync(ws, ['rev-parse', 'HEAD']));
    await store.append(mainRun(commits[i]!, i, main.levels(i)), { commit: commits[i]!, testbed: 'bench-1' });
  }
  return main;
}

/** The next commit of `main`, with run i's results written to measured.json; returns its sha. */
export function nextMainCommit(main: Main, i: number): string {
  gitSync(main.ws, ['commit', '-q', '--allow-empty', '-m', `commit ${i}`]);
  const sha = gitSync(main.ws, ['rev-parse', 'HEAD']);
  main.commits.push(sha);
  writeFileSync(join(main.ws, 'measured.json'), JSON.stringify(mainRun(sha, i, main.levels(i))));
  return sha;
}
