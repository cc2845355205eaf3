/**
 * A run's reports on the runner, before any API call: the job summary first
 * (whatever the disk under output-dir does, the report reaches the job), the
 * run's files in output-dir, and the step's outputs.
 */
import { jobSummary, writeRunFiles, type GateReport, type RunFiles, type RunOutcome } from '../pipeline/index.js';
import type { ResultSet } from '../model/index.js';
import type { ActionLog } from './log.js';
import type { Settings } from './settings.js';

/** The summary, the files and the outputs; the files written, or null when the file system refused them. */
export async function publishReports(settings: Settings, outcome: RunOutcome, log: ActionLog): Promise<RunFiles | null> {
  const { report, current } = outcome;
  await log.appendSummary(jobSummary(report, settings.gateName));
  const files = writeRunFilesOrSay(settings, report, current, log);
  setReportOutputs(log, report, files);
  return files;
}

/**
 * The run's files in output-dir, or null when the file system refuses them
 * (full, read-only, no permission): an error annotation then says so, and the
 * verdict and its exit status stand, since the report is in the job summary.
 */
function writeRunFilesOrSay(settings: Settings, report: GateReport, current: ResultSet, log: ActionLog): RunFiles | null {
  try {
    return writeRunFiles(report, current, settings.outputDir, settings.gateName);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    log.error(
      `perf-gate: could not write the run's files to output-dir ${settings.outputDir} (${(error as Error).message}); the report is in the job summary, the verdict stands`,
    );
    return null;
  }
}

function setReportOutputs(log: ActionLog, report: GateReport, files: RunFiles | null): void {
  log.setOutput('verdict', report.verdict);
  const c = report.counts;
  log.setOutput('regressed', String(c.regressed));
  log.setOutput('improved', String(c.improved));
  log.setOutput('unchanged', String(c.unchanged));
  log.setOutput('inconclusive', String(c.inconclusive));
  log.setOutput('new', String(c.new));
  log.setOutput('missing', String(c.missing));
  log.setOutput('failed', String(c.failed));
  log.setOutput('budget-failed', String(c.budgetFailed));
  log.setOutput('budget-warned', String(c.budgetWarned));
  log.setOutput('counts', JSON.stringify(c));
  if (files === null) return;
  log.setOutput('report-json', files.reportJson);
  log.setOutput('report-markdown', files.reportMarkdown);
  log.setOutput('results', files.results);
}
