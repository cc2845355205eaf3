/**
 * The reporter's annotations in the shape GitHub's check-runs API takes:
 * repository paths, a line for every record, failures first. The action's
 * own concern (the command line has no check run).
 */
import { relative, resolve } from 'node:path';
import type { CheckRunAnnotation } from '../github/client.js';
import { toAnnotations, type GateReport } from '../pipeline/index.js';

/** Files the check-run annotations are anchored to: paths as the reporter names them, resolved against the repository. */
export interface AnnotationPaths {
  /** The repository's root (GITHUB_WORKSPACE). */
  workspace: string;
  /** The folder relative file names start from. */
  workingDirectory: string;
  /** perf-gate.yml, the anchor of annotations that name no file. */
  config: string;
}

/** A file named by the reporter (relative to the working directory, or absolute) as a repository path. */
function repoPath(file: string, paths: AnnotationPaths): string {
  const rel = relative(paths.workspace, resolve(paths.workingDirectory, file));
  return rel === '' || rel.startsWith('..') ? relative(paths.workspace, paths.config) || 'perf-gate.yml' : rel;
}

/**
 * The reporter's annotation records in the shape the check-runs API wants,
 * gate-failing ones first (only the first 50 show inline on the summary
 * page). GitHub requires every annotation to name a file and line of the
 * repository; records without one (a regression, a failed benchmark) are
 * anchored to perf-gate.yml, the file that defines the suite.
 */
export function checkRunAnnotations(report: GateReport, paths: AnnotationPaths): CheckRunAnnotation[] {
  const rank = { failure: 0, warning: 1, notice: 2 } as const;
  return toAnnotations(report)
    .map((a, i) => ({ a, i }))
    .sort((x, y) => rank[x.a.level] - rank[y.a.level] || x.i - y.i)
    .map(({ a }) => {
      const path = repoPath(a.file ?? paths.config, paths);
      const line = a.file !== undefined && a.line !== undefined ? a.line : 1;
      return { path, start_line: line, end_line: line, annotation_level: a.level, title: a.title, message: a.message };
    });
}
