/**
 * A batch of changes that got slower together (a merge queue's group):
 * which of them did it. The batch is the first-parent path from the base
 * commit to the head, one commit per change; each regressed row is bisected
 * over that path (bisect.ts: the same interleaved comparison, one benchmark
 * a step), and the culprit commit names its change. A batch of one change
 * needs no measuring: that change did it.
 */
import { join } from 'node:path';
import type { BisectCommit } from '../../gate/bisect-steps.js';
import type { BatchBlame, RowBlame } from '../../gate/batch-blame.js';
import type { VerdictRow } from '../../gate/index.js';
import { InputError, type Budgets } from '../../model/index.js';
import type { PerfGateConfig } from '../../config/perf-gate-config.js';
import type { RunContext } from '../run-deps.js';
import { bisect, bisectRange } from './bisect.js';

export interface BatchBlameRequest extends RunContext {
  base: string;
  head: string;
  /** The rows the batch regressed; the first `limit` are searched (each costs a bisect). */
  regressed: readonly VerdictRow[];
  limit: number;
  /** The pull request a commit of the path brought, from what the forge writes in its subject. */
  pullRequestOf(commit: BisectCommit, isHead: boolean): number | null;
  config: PerfGateConfig;
  budgets: Budgets;
  outDir: string;
}

/** The members of the batch, and for each searched regressed row the member that made it slower. */
export async function blameBatch(request: BatchBlameRequest): Promise<BatchBlame> {
  const { path } = bisectRange(request.config.dir, request.base, request.head);
  const members = path.map((commit, i) => ({ commit, pullRequest: request.pullRequestOf(commit, i === path.length - 1) }));
  const rows: RowBlame[] = [];
  for (const row of request.regressed.slice(0, request.limit)) {
    const said = { benchmark: row.benchmark, metric: row.metric, change: row.change };
    if (members.length === 1) {
      rows.push({ ...said, culprit: members[0]!, why: null });
      continue;
    }
    try {
      const report = await bisect({
        ...request,
        good: request.base,
        bad: request.head,
        benchmark: row.benchmark,
        metric: row.metric,
        outDir: join(request.outDir, `row-${rows.length + 1}`),
      });
      const found = report.outcome.kind === 'culprit' ? report.outcome.commit.sha : null;
      const culprit = members.find((m) => m.commit.sha === found) ?? null;
      rows.push({ ...said, culprit, why: culprit ? null : `the search ended ${report.outcome.kind}` });
    } catch (error) {
      // A step that cannot be measured (a benchmark that fails at a commit) leaves the row unplaced, not the gate broken.
      if (!(error instanceof InputError)) throw error;
      rows.push({ ...said, culprit: null, why: error.message });
    }
  }
  return { members, rows };
}
