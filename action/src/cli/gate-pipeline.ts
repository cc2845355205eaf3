/**
 * The shared tail of every gating command (compare, run, action): budgets and
 * both ResultSets in, the gate's decision out, reports written where asked.
 * Commands differ only in how they obtain the ResultSets.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EMPTY_BUDGETS, loadBudgets, type Budgets } from '../config/budgets.js';
import { decide, DEFAULT_GATE_OPTIONS, TestbedMismatchError, type GateOptions, type GateReport } from '../gate/index.js';
import { InputError, type ResultSet } from '../model/index.js';
import { renderJson, renderMarkdown, renderTerminal } from '../report/index.js';
import { EXIT, type CliContext } from './command.js';

export interface ReportOutputs {
  json?: string;
  markdown?: string;
}

/**
 * Budgets from the given paths; with none given, the conventional `budgets/`
 * folder when it exists (docs/design.md, Layout), else no budgets at all.
 */
export function resolveBudgets(paths: readonly string[] | undefined, cwd: string): Budgets {
  if (paths && paths.length > 0) return loadBudgets(paths, cwd);
  const conventional = resolve(cwd, 'budgets');
  if (existsSync(conventional) && statSync(conventional).isDirectory()) return loadBudgets(['budgets'], cwd);
  return EMPTY_BUDGETS;
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

export interface GateOutcome {
  report: GateReport;
  exitCode: number;
}

/**
 * Decides, writes the requested reports, prints the terminal table, and
 * returns the exit status (0 pass, 1 fail). A testbed mismatch under
 * `refuse` is unusable input (exit 2).
 */
export function gateAndReport(
  baseline: ResultSet | undefined,
  current: ResultSet,
  budgets: Budgets,
  outputs: ReportOutputs,
  ctx: CliContext,
  options: GateOptions = DEFAULT_GATE_OPTIONS,
  /** Adds facts the gate could not know (A/B confirmation flags) before anything is written. */
  adjust: (report: GateReport) => GateReport = (report) => report,
): GateOutcome {
  let report: GateReport;
  try {
    report = adjust(decide(baseline, current, budgets, options));
  } catch (error) {
    if (error instanceof TestbedMismatchError) throw new InputError('--baseline', error.message);
    throw error;
  }
  if (outputs.json) writeReport(resolve(ctx.cwd, outputs.json), '--json', renderJson(report));
  if (outputs.markdown) writeReport(resolve(ctx.cwd, outputs.markdown), '--markdown', renderMarkdown(report, {}));
  ctx.stdout(renderTerminal(report, { color: ctx.env.NO_COLOR === undefined && ctx.env.FORCE_COLOR !== undefined }));
  return { report, exitCode: report.verdict === 'pass' ? EXIT.pass : EXIT.fail };
}
