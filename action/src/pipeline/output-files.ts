/**
 * Where a run's words go: one exporter per output (hyperfine's
 * ExportManager, as a model). The command line's report files and table, the
 * action's run files, the release report. Every file is written atomically
 * (a finished temporary file renamed over the path), so a full disk or a
 * killed process leaves the previous file whole; the renderers are report/'s.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { GateReport } from '../gate/index.js';
import { assembleRelease, type ReleaseModel } from '../gate/release-model.js';
import { InputError, type ResultSet } from '../model/index.js';
import { JOB_SUMMARY_LIMIT, renderJson, renderMarkdown, renderTerminal } from '../report/index.js';
import { escapeMarkdown } from '../report/escape-markdown.js';
import { renderReleaseModel } from '../report/release.js';
import { renderReleaseJson } from '../report/release-json.js';
import { jobSummary } from '../report/summaries.js';
import { describeFsError, writeFileAtomic, writeResultSet } from '../store/index.js';
import type { CliContext } from './command.js';
import { STDOUT_PATH, symlinkProblem, takesStdout, type ReportOutputs } from './output-paths.js';

export { serializeResultSet } from '../store/index.js';

/** Colour on the terminal only when asked for (FORCE_COLOR) and not refused (NO_COLOR). */
export function terminalColor(env: NodeJS.ProcessEnv): boolean {
  return env.NO_COLOR === undefined && env.FORCE_COLOR !== undefined;
}

/**
 * Writes a command's output file atomically (relative to the working
 * directory), or to `stdout` when the path is `-`; a failure names the flag.
 */
export function writeOutputFile(cwd: string, path: string, text: string, flag = '--out', stdout?: (text: string) => void): void {
  if (path === STDOUT_PATH) {
    if (stdout === undefined) throw new InputError(`${flag} -`, 'standard output cannot take this file; give a path');
    stdout(text);
    return;
  }
  // Checked again here, not only when the paths were prepared: a link made since would be replaced by the rename.
  const link = symlinkProblem(resolve(cwd, path));
  if (link !== undefined) throw new InputError(`${flag} ${JSON.stringify(path)}`, link);
  try {
    writeFileAtomic(resolve(cwd, path), text);
  } catch (error) {
    throw new InputError(`${flag} ${JSON.stringify(path)}`, `cannot write the file: ${describeFsError(error)}`);
  }
}

/** The command line's publication: the requested report files, then the table on standard output (unless a report took it). */
export function publishToTerminal(report: GateReport, outputs: ReportOutputs, ctx: CliContext): void {
  if (outputs.json) writeOutputFile(ctx.cwd, outputs.json, renderJson(report), '--json', ctx.stdout);
  if (outputs.markdown) writeOutputFile(ctx.cwd, outputs.markdown, renderMarkdown(report, {}), '--markdown', ctx.stdout);
  if (!takesStdout(outputs.json, outputs.markdown)) ctx.stdout(renderTerminal(report, { color: terminalColor(ctx.env) }));
}

/** Where a run's files went, for the action's outputs and the artifact. */
export interface RunFiles {
  reportJson: string;
  reportMarkdown: string;
  results: string;
}

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

/** Where the action's release report went, and the text for the job summary. */
export interface ReleaseFiles {
  /** release-report.md: the whole report. */
  path: string;
  /** release-report.json (schema perf-gate/release@1). */
  jsonPath: string;
  markdown: string;
  /** The report for the job summary: cut to what the run's own summary left of GitHub's 1 MiB. */
  summary: string;
}

/** Said where the release report's tables are cut: where the whole one is. */
const FULL_RELEASE_HINT = "the run's `perf-gate` artifact (`release-report.md`, `release-report.json`)";

/**
 * Writes the release report for the tag of `ref` into the output folder:
 * release-report.md (whole) and release-report.json. `release.model` adds
 * what the run history knows (change points since the previous release); a
 * `title` says the gate's job summary (renderJobSummary) comes first in the
 * step summary, so the release report gets only the room it leaves.
 */
export function writeReleaseReport(report: GateReport, outputDir: string, ref: string, release: { model?: ReleaseModel; title?: string } = {}): ReleaseFiles {
  const path = join(outputDir, 'release-report.md');
  const jsonPath = join(outputDir, 'release-report.json');
  const tag = /^refs\/tags\/(.+)$/.exec(ref)?.[1];
  const model = release.model ?? assembleRelease({ report });
  const options = tag ? { version: tag } : {};
  const markdown = renderReleaseModel(model, options);
  const used = release.title !== undefined ? Buffer.byteLength(jobSummary(report, release.title), 'utf8') : 0;
  const summary = renderReleaseModel(model, { ...options, maxBytes: Math.max(0, JOB_SUMMARY_LIMIT - used - 2), fullReportHint: FULL_RELEASE_HINT });
  mkdirSync(outputDir, { recursive: true });
  writeFileAtomic(path, markdown);
  writeFileAtomic(jsonPath, renderReleaseJson(model));
  return { path, jsonPath, markdown, summary };
}

/** The release report files `perf-gate report release` was asked for. */
export interface ReleaseOutputs {
  /** A folder for release-report.md (whole) and release-report.json. */
  out?: string;
  json?: string;
  /** The report for a job summary: at most 1 MiB, its tables cut when longer. */
  markdown?: string;
}

/** Writes the requested release report files (paths relative to the working directory); returns what was written. */
export function writeReleaseOutputs(model: ReleaseModel, outputs: ReleaseOutputs, cwd: string, stdout?: (text: string) => void): string[] {
  const written: string[] = [];
  if (outputs.out !== undefined) {
    writeOutputFile(cwd, join(outputs.out, 'release-report.md'), renderReleaseModel(model), '--out');
    writeOutputFile(cwd, join(outputs.out, 'release-report.json'), renderReleaseJson(model), '--out');
    written.push(join(outputs.out, 'release-report.md'), join(outputs.out, 'release-report.json'));
  }
  if (outputs.json !== undefined) {
    writeOutputFile(cwd, outputs.json, renderReleaseJson(model), '--json', stdout);
    written.push(outputs.json);
  }
  if (outputs.markdown !== undefined) {
    const hint =
      outputs.out !== undefined
        ? escapeMarkdown(join(outputs.out, 'release-report.md'))
        : outputs.json !== undefined
          ? 'the JSON report'
          : 'the report `--out DIR` writes';
    writeOutputFile(cwd, outputs.markdown, renderReleaseModel(model, { maxBytes: JOB_SUMMARY_LIMIT, fullReportHint: hint }), '--markdown', stdout);
    written.push(outputs.markdown);
  }
  return written;
}
