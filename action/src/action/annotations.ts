/**
 * The reporter's annotation records (report/annotations.ts) in the shape the
 * check-runs API wants. GitHub requires every annotation to name a file and
 * line of the repository; records without one (a regression, a failed
 * benchmark) are anchored to perf-gate.yml, the file that defines the suite.
 */
import { relative, resolve } from 'node:path';
import type { GateReport } from '../gate/index.js';
import type { CheckRunAnnotation } from '../github/client.js';
import { toAnnotations } from '../report/index.js';
import type { Settings } from './settings.js';

/** A file named by the reporter (relative to the working directory, or absolute) as a repository path. */
function repoPath(file: string, settings: Settings): string {
  const rel = relative(settings.github.workspace, resolve(settings.workingDirectory, file));
  return rel === '' || rel.startsWith('..') ? relative(settings.github.workspace, settings.config) || 'perf-gate.yml' : rel;
}

/** Check-run annotations, gate-failing ones first (only the first 50 show inline on the summary page). */
export function checkRunAnnotations(report: GateReport, settings: Settings): CheckRunAnnotation[] {
  const rank = { failure: 0, warning: 1, notice: 2 } as const;
  return toAnnotations(report)
    .map((a, i) => ({ a, i }))
    .sort((x, y) => rank[x.a.level] - rank[y.a.level] || x.i - y.i)
    .map(({ a }) => {
      const path = repoPath(a.file ?? settings.config, settings);
      const line = a.file !== undefined && a.line !== undefined ? a.line : 1;
      return { path, start_line: line, end_line: line, annotation_level: a.level, title: a.title, message: a.message };
    });
}
