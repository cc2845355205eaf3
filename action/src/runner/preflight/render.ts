import type { PreflightReport } from './index.js';
import type { Finding, FindingStatus } from './finding.js';

const MARK: Record<FindingStatus, string> = { ok: 'ok    ', info: 'info  ', advice: 'advice', warn: 'WARN  ', unknown: '??    ' };

/** The report for a terminal: one line per finding, its fix indented below, then a summary. */
export function preflightText(report: PreflightReport): string {
  if (report.level === 'off') return 'perf-gate preflight: off (no checks run)\n';
  const lines = [`perf-gate preflight (level ${report.level}${report.root !== '/' ? `, root ${report.root}` : ''})`];
  for (const f of report.findings) {
    lines.push(`  ${MARK[f.status]} ${f.check.padEnd(11)} ${f.message}`);
    if (f.fix && (f.status === 'warn' || f.status === 'advice')) lines.push(`  ${' '.repeat(18)} fix: ${f.fix}`);
  }
  if (report.testbed) lines.push(`  testbed ${report.testbed.id}`);
  const c = report.counts;
  const unread = c.unknown > 0 ? `, ${c.unknown} not readable here` : '';
  const verdict = report.fails ? 'FAILED (strict: fix the warnings or lower the level)' : c.warn > 0 ? 'passed with warnings' : 'passed';
  lines.push(`${verdict}: ${c.warn} warning${c.warn === 1 ? '' : 's'}, ${c.advice} advice${unread}`);
  return `${lines.join('\n')}\n`;
}

/** Escapes a workflow-command message (the runner's protocol: %, CR, LF). */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow-command property value (also : and ,). */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * GitHub annotations for the findings that need attention: `warn` as
 * warnings (errors under strict, where they fail the job), `advice` as
 * notices. The message carries the fix.
 */
export function preflightAnnotations(report: PreflightReport): string {
  const line = (f: Finding): string | null => {
    const command = f.status === 'warn' ? (report.fails ? 'error' : 'warning') : f.status === 'advice' ? 'notice' : null;
    if (command === null) return null;
    const text = f.fix ? `${f.message}\nFix: ${f.fix}` : f.message;
    return `::${command} title=${escapeProperty(`perf-gate preflight: ${f.check}`)}::${escapeData(text)}`;
  };
  return report.findings
    .map(line)
    .filter((l) => l !== null)
    .map((l) => `${l}\n`)
    .join('');
}
