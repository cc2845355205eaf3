/**
 * Phase 4 of a run: publish. Writes the reports where they were asked for
 * (JSON, Markdown, the run's results.json, the release report) and renders
 * every text a face shows: the terminal table, the job summary, the pull
 * request comment and the check run's title, summary and annotations. Files
 * are written atomically; the faces decide only where the text goes.
 */
import { accessSync, closeSync, constants, lstatSync, mkdirSync, openSync, readlinkSync, rmSync, statSync, type Stats } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { GateReport } from '../gate/index.js';
import type { CheckRunAnnotation } from '../github/client.js';
import { InputError, type ResultSet } from '../model/index.js';
import { assembleRelease, type ReleaseModel } from '../gate/release-model.js';
import { JOB_SUMMARY_LIMIT, renderJobSummary, renderJson, renderMarkdown, renderTerminal, toAnnotations } from '../report/index.js';
import { escapeMarkdown } from '../report/escape-markdown.js';
import { renderReleaseModel } from '../report/release.js';
import { renderReleaseJson } from '../report/release-json.js';
import { releaseTerminalSections } from '../report/release-text.js';
import { outcomeOf, verdictText } from '../report/table.js';
import { describeFsError, writeFileAtomic, writeResultSet } from '../store/index.js';
import type { CliContext } from './command.js';

export { serializeResultSet } from '../store/index.js';

/** The report files a command was asked for (paths as given, relative to the working directory). */
export interface ReportOutputs {
  json?: string;
  markdown?: string;
}

/**
 * One output path a command was given: the flag (or action input) that named
 * it, the path as given, and whether a file or a folder goes there.
 */
export interface OutputPath {
  flag: string;
  path: string | undefined;
  kind: 'file' | 'folder';
}

/** The longest name of one path component on the file systems perf-gate runs on (bytes). */
const NAME_MAX = 255;
/** The longest whole path (bytes). */
const PATH_MAX = 4095;

/**
 * The output path that means standard output: `--json -` prints the JSON
 * report there instead of the table. (`/dev/stdout` is a symbolic link, and
 * perf-gate never writes through one: see refuseSymlink.)
 */
export const STDOUT_PATH = '-';

/** Whether any of these report flags asked for standard output (the table then stays off it). */
export function takesStdout(...paths: (string | undefined)[]): boolean {
  return paths.includes(STDOUT_PATH);
}

/**
 * Files are written by renaming a finished temporary file over the path, so
 * a symbolic link there would be replaced by a regular file (as root, even
 * /dev/stdout). perf-gate refuses instead, naming where the link leads.
 */
function symlinkProblem(abs: string): string | undefined {
  let target: string;
  try {
    if (!lstatSync(abs).isSymbolicLink()) return undefined;
    target = readlinkSync(abs);
  } catch {
    return undefined;
  }
  const stdout = /^\/dev\/(stdout|fd\/1|stderr|fd\/2)$/.test(abs) || /^\/proc\/self\/fd\/[12]$/.test(target);
  return `is a symbolic link (to ${target}); perf-gate replaces the files it writes and never replaces a link: give the real path${stdout || abs.startsWith('/dev/') ? ', or - for standard output' : ''}`;
}

function outputError(output: OutputPath, detail: string): InputError {
  return new InputError(`${output.flag} ${JSON.stringify(output.path ?? '')}`, detail);
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/** Creates a folder (and its parents), naming the ancestor that is a file when that is the problem. */
function ensureFolder(output: OutputPath, dir: string): void {
  let ancestor = dir;
  while (statOrNull(ancestor) === null && dirname(ancestor) !== ancestor) ancestor = dirname(ancestor);
  const found = statOrNull(ancestor);
  if (found && !found.isDirectory()) throw outputError(output, `${ancestor} is a file, expected a folder`);
  // One level at a time: Node's recursive mkdirSync loops forever where a parent exists but refuses new entries (/proc).
  const missing: string[] = [];
  for (let d = dir; d !== ancestor; d = dirname(d)) missing.unshift(d);
  for (const d of missing) {
    try {
      mkdirSync(d);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && statOrNull(d)?.isDirectory()) continue;
      throw outputError(output, `cannot create the folder ${d}: ${describeFsError(error)}`);
    }
  }
  // Root ignores permission bits, so try it: a read-only mount or /proc refuses even root.
  const probe = join(dir, `.perf-gate-write-test-${process.pid}-${Math.random().toString(36).slice(2)}`);
  try {
    closeSync(openSync(probe, 'wx'));
  } catch (error) {
    throw outputError(output, `cannot write into the folder ${dir}: ${describeFsError(error)}`);
  }
  rmSync(probe, { force: true });
}

/**
 * The one place output paths are prepared, before any work starts: every
 * problem a path has (empty, a name too long, a file where a folder is
 * needed or the other way round, no permission, a place that takes no files)
 * is unusable input (exit 2) naming the flag, the path and what is wrong.
 * Missing parent folders are created.
 */
export function prepareOutputPaths(outputs: readonly OutputPath[], cwd: string): void {
  const toStdout = outputs.filter((o) => o.path === STDOUT_PATH);
  if (toStdout.length > 1) throw outputError(toStdout[1]!, `standard output is already taken by ${toStdout[0]!.flag}: give one of them a file`);
  for (const output of outputs) {
    if (output.path === undefined) continue;
    if (output.path === STDOUT_PATH) {
      if (output.kind === 'folder') throw outputError(output, 'expected a folder; - (standard output) takes only a file');
      continue;
    }
    if (output.path.trim() === '') throw outputError(output, `is empty, expected a ${output.kind} name`);
    if (output.path.includes('\0')) throw outputError(output, 'contains a NUL character');
    const abs = resolve(cwd, output.path);
    if (Buffer.byteLength(abs) > PATH_MAX) throw outputError(output, `name too long: the path has ${Buffer.byteLength(abs)} bytes, the limit is ${PATH_MAX}`);
    const long = abs.split(sep).find((part) => Buffer.byteLength(part) > NAME_MAX);
    if (long !== undefined) throw outputError(output, `name too long: "${long.slice(0, 40)}…" has ${Buffer.byteLength(long)} bytes, the limit is ${NAME_MAX}`);
    // A folder is written into, so a link to one is followed (and refused where it leads out of the repository: inputs.ts).
    const link = output.kind === 'file' ? symlinkProblem(abs) : undefined;
    if (link !== undefined) throw outputError(output, link);
    const existing = statOrNull(abs);
    if (output.kind === 'file') {
      if (existing?.isDirectory()) throw outputError(output, 'is a folder, expected a file');
      ensureFolder(output, dirname(abs));
      if (existing) {
        try {
          accessSync(abs, constants.W_OK);
        } catch (error) {
          throw outputError(output, `cannot be overwritten: ${describeFsError(error)}`);
        }
      }
    } else {
      if (existing && !existing.isDirectory()) throw outputError(output, 'is a file, expected a folder');
      ensureFolder(output, abs);
    }
  }
}

/** Fails early (exit 2) when a report could not be written, before any suite runs. */
export function prepareOutputs(outputs: ReportOutputs, cwd: string): void {
  prepareOutputPaths(Object.entries(outputs).map(([flag, path]) => ({ flag: `--${flag}`, path, kind: 'file' as const })), cwd);
}

/**
 * Writes a report file, atomically: a full disk or a killed process leaves
 * the previous report whole rather than a truncated one. A path that cannot
 * take it (a folder, no permission, no space) is unusable input naming the flag.
 */
function writeReport(path: string, flag: string, text: string): void {
  const link = symlinkProblem(path);
  if (link !== undefined) throw new InputError(`${flag} ${JSON.stringify(path)}`, link);
  try {
    writeFileAtomic(path, text);
  } catch (error) {
    throw new InputError(`${flag} ${JSON.stringify(path)}`, `cannot write the report: ${describeFsError(error)}`);
  }
}

/** The command line's publication: the requested report files, then the table on standard output. */
export function publishToTerminal(report: GateReport, outputs: ReportOutputs, ctx: CliContext): void {
  const write = (path: string, flag: string, text: string): void => (path === STDOUT_PATH ? ctx.stdout(text) : writeReport(resolve(ctx.cwd, path), flag, text));
  if (outputs.json) write(outputs.json, '--json', renderJson(report));
  if (outputs.markdown) write(outputs.markdown, '--markdown', renderMarkdown(report, {}));
  if (!takesStdout(outputs.json, outputs.markdown)) ctx.stdout(renderTerminal(report, { color: ctx.env.NO_COLOR === undefined && ctx.env.FORCE_COLOR !== undefined }));
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
  const link = symlinkProblem(resolve(cwd, path));
  if (link !== undefined) throw new InputError(`${flag} ${JSON.stringify(path)}`, link);
  try {
    writeFileAtomic(resolve(cwd, path), text);
  } catch (error) {
    throw new InputError(`${flag} ${JSON.stringify(path)}`, `cannot write the file: ${describeFsError(error)}`);
  }
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
const FULL_RELEASE_HINT = 'the run\'s `perf-gate` artifact (`release-report.md`, `release-report.json`)';

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
    const hint = outputs.out !== undefined
      ? escapeMarkdown(join(outputs.out, 'release-report.md'))
      : outputs.json !== undefined ? 'the JSON report' : 'the report `--out DIR` writes';
    writeOutputFile(cwd, outputs.markdown, renderReleaseModel(model, { maxBytes: JOB_SUMMARY_LIMIT, fullReportHint: hint }), '--markdown', stdout);
    written.push(outputs.markdown);
  }
  return written;
}

/** The release report on the terminal: the comparison table, the change points and recommendations, the verdict last. */
export function releaseTerminalText(model: ReleaseModel, ctx: CliContext): string {
  return renderTerminal(model.report, { color: ctx.env.NO_COLOR === undefined && ctx.env.FORCE_COLOR !== undefined, sections: releaseTerminalSections(model) });
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
