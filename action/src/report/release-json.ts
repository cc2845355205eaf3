/**
 * The release report for machines (`--json FILE`, `release-report.json`),
 * schema `perf-gate/release@1`: the verdict (go / no-go), the two sides, the
 * summary counts, the change points between the releases (null without a run
 * history), the recommendations with the commands they suggest, and the
 * comparison itself as the JSON report (`perf-gate/report@1`). Numbers in
 * base units at full precision; NaN and infinities are written as null.
 */
import type { ReleaseModel } from '../gate/release-model.js';
import { toJsonReport } from './json.js';
import { bisectCommands } from './release-commands.js';
import { compareUrl } from './compare-url.js';

export function toReleaseJson(model: ReleaseModel): Record<string, unknown> {
  return {
    schema: model.schema,
    verdict: model.verdict,
    previous: model.previous,
    candidate: model.candidate,
    testbed: model.testbed,
    repositoryUrl: model.repositoryUrl,
    summary: model.summary,
    historyRuns: model.historyRuns,
    changes: model.changes?.map((c) => ({ ...c, compareUrl: compareUrl(model.repositoryUrl, c.previousCommit, c.commit) })) ?? null,
    recommendations: {
      bisect: model.recommendations.bisect.map((a) => ({
        ...a,
        compareUrl: compareUrl(model.repositoryUrl, a.good, a.bad),
        commands: a.commits === 1 ? null : bisectCommands(a),
      })),
      remeasure: model.recommendations.remeasure,
      nearLimit: model.recommendations.nearLimit,
    },
    report: toJsonReport(model.report),
  };
}

/** The JSON text: two-space indented, ending in a newline. */
export function renderReleaseJson(model: ReleaseModel): string {
  return `${JSON.stringify(toReleaseJson(model), (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? null : value), 2)}\n`;
}
