/**
 * Output paths, checked before any work starts: every path a command or the
 * action will write (a report, a folder of results, a history folder) is
 * usable, or the run stops with exit 2 naming the flag, the path and what is
 * wrong. `-` is standard output; a file path that is a symbolic link is
 * refused, never replaced (output-files.ts writes by renaming over a path).
 */
import { accessSync, closeSync, constants, lstatSync, mkdirSync, openSync, readlinkSync, rmSync, statSync, type Stats } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { InputError } from '../model/index.js';
import { describeFsError } from '../store/index.js';

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
export function symlinkProblem(abs: string): string | undefined {
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
  prepareOutputPaths(
    Object.entries(outputs).map(([flag, path]) => ({ flag: `--${flag}`, path, kind: 'file' as const })),
    cwd,
  );
}
