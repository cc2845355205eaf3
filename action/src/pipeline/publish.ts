/**
 * Phase 4 of a run: publish. Writes the reports where they were asked for
 * (JSON, Markdown, the run's results.json, the release report) and renders
 * every text a face shows: the terminal table, the job summary, the pull
 * request comment and the check run's title, summary and annotations. Files
 * are written atomically; the faces decide only where the text goes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { GateReport } from '../gate/index.js';
import type { CheckRunAnnotation } from '../github/client.js';
import { InputError, type ResultSet } from '../model/index.js';
import { renderJobSummary, renderJson, renderMarkdown, renderRelease, renderTerminal, toAnnotations } from '../report/index.js';
import { outcomeOf, verdictText } from '../report/table.js';
import { writeFileAtomic, writeResultSet } from '../store/index.js';
import type { CliContext } from './command.js';

export { serializeResultSet } from '../store/index.js';

/** The report files a command was asked for (paths as given, relative to the working directory). */
export interface ReportOutputs {
  json?: string;
  markdown?: string;
}

/** Fails early (exit 2) when a report could not be written, before any suite runs. */
export function prepareOutputs(outputs: ReportOutputs, cwd: string): void {
  for (const [flag, path] of Object.entries(outputs)) {
    if (!path) continue;
    const dir = dirname(resolve(cwd, path));
    try {
      mkdirSync(dir, { recursive: true });
    } catch (error) {
      throw new InputError(path, `cannot create the folder for --${flag}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
}

/** Writes a report file; a path that cannot take it (a folder, no permission) is unusable input naming the flag. */
function writeReport(path: string, flag: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch (error) {
    throw new InputError(path, `cannot write the ${flag} report: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** The command line's publication: the requested report files, then the table on standard output. */
export function publishToTerminal(report: GateReport, outputs: ReportOutputs, ctx: CliContext): void {
  if (outputs.json) writeReport(resolve(ctx.cwd, outputs.json), '--json', renderJson(report));
  if (outputs.markdown) writeReport(resolve(ctx.cwd, outputs.markdown), '--markdown', renderMarkdown(report, {}));
  ctx.stdout(renderTerminal(report, { color: ctx.env.NO_COLOR === undefined && ctx.env.FORCE_COLOR !== undefined }));
}

/** Writes a command's output file atomically (relative to the working directory). */
export function writeOutputFile(cwd: string, path: string, text: string): void {
  writeFileAtomic(resolve(cwd, path), text);
}

/** Where a run's files went, for the action's outputs and the artifact. */
export interface RunFiles {
  reportJson: string;
  reportMarkdown: string;
  results: string;
}

/** Said wherever a report is cut short: where the whole one is. */
export const FULL_REPORT_HINT = 'The job summary and the run\'s `perf-gate` artifact have the full report.';

/** Writes report.json, report.md (untruncated) and the run's results.json into the output folder. */
export function writeRunFiles(report: GateReport, current: ResultSet, outputDir: string, title: string): RunFiles {
  const files: RunFiles = {
    reportJson: join(outputDir, 'report.json'),
    reportMarkdown: join(outputDir, 'report.md'),
    results: join(outputDir, 'results.json'),
  };
  mkdirSync(outputDir, { recursive: true });
  writeFileAtomic(files.reportJson, renderJson(report));
  writeFileAtomic(files.reportMarkdown, renderMarkdown(report, { title, maxLength: 1_000_000 }));
  writeResultSet(files.results, current);
  return files;
}

/** The job summary's Markdown. */
export function jobSummary(report: GateReport, title: string): string {
  return renderJobSummary(report, { title, fullReportHint: FULL_REPORT_HINT });
}

/** Writes the release report (`release-report.md`) for the tag of `ref`; returns its path and text. */
export function writeReleaseReport(report: GateReport, outputDir: string, ref: string): { path: string; markdown: string } {
  const path = join(outputDir, 'release-report.md');
  const tag = /^refs\/tags\/(.+)$/.exec(ref)?.[1];
  const markdown = renderRelease(report, tag ? { version: tag } : {});
  writeFileAtomic(path, markdown);
  return { path, markdown };
}

/** The pull request comment's body, cut to `maxLength` with a pointer to the full report. */
export function commentMarkdown(report: GateReport, options: { title: string; marker: string; maxLength: number; previouslyFailed: boolean }): string {
  return renderMarkdown(report, { ...options, fullReportHint: FULL_REPORT_HINT });
}

/** The check run's summary (its limit is 65,535 characters). */
export function checkRunSummary(report: GateReport, title: string): string {
  return renderMarkdown(report, { title, maxLength: 65_535, fullReportHint: FULL_REPORT_HINT });
}

/** One line for the check run's title: "Fail: 2 regressions, 3 unchanged", with the reports' own wording. */
export function checkRunTitle(report: GateReport): string {
  return `${report.verdict === 'pass' ? 'Pass' : 'Fail'}: ${verdictText(report, outcomeOf(report))}`;
}

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
