import { stripVTControlCharacters } from 'node:util';
import type { GateReport, VerdictRow } from '../gate/types.js';
import { escapeHtml } from './escape-html.js';
import { FLAG_TEXT, flagsIn, rowNotes } from './flags.js';
import { reasonText } from './reason-text.js';
import { warningText } from './warning-text.js';
import { shortCommit } from './format.js';
import {
  COLUMNS,
  DELTA_EXPLAINED,
  NUMERIC_COLUMNS,
  SECTIONS,
  groupRows,
  outcomeOf,
  statusLabel,
  tableCells,
  verdictText,
  type CellHooks,
  type Section,
} from './table.js';

/**
 * A standalone HTML report (one file, no scripts, no external resources) for
 * an artifact or a release page: every row, in sections, with failure logs.
 * A Content-Security-Policy forbids scripts, as a second fence behind
 * escapeHtml.
 */
export interface HtmlOptions {
  /** Page title; default "perf-gate report". Escaped. */
  title?: string;
}

const SECTION_TITLE: Record<Section, string> = {
  failed: 'Failed',
  regressed: 'Regressed',
  suspected: 'Suspected (not confirmed)',
  budget: 'Budget exceeded',
  accepted: 'Accepted on the record',
  inconclusive: 'Inconclusive',
  'new-missing': 'New and missing',
  improved: 'Improved',
  unchanged: 'Unchanged',
};

const HOOKS: CellHooks = {
  escape: (t) => escapeHtml(t),
  verdict(row) {
    const notes = rowNotes(row);
    const small = notes.length > 0 ? `<br><small>${escapeHtml(notes.join(' · '))}</small>` : '';
    const cls = row.status === 'regressed' && !row.failsGate ? 'warn' : row.status;
    return `<span class="s ${cls}" title="${escapeHtml(reasonText(row.reason))}">${escapeHtml(statusLabel(row))}</span>${small}`;
  },
  budgetMark(result, severity) {
    if (result === 'pass') return '<span class="s improved">pass</span>';
    return severity === 'warn' ? '<span class="s warn">warn</span>' : '<span class="s regressed">fail</span>';
  },
};

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2em;color:#1f2328}
table{border-collapse:collapse;width:100%;margin:.5em 0 1.5em}
th,td{border:1px solid #d0d7de;padding:4px 8px;vertical-align:top;text-align:left}
td.n{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
th{background:#f6f8fa}
.s{font-weight:600}.failed,.regressed{color:#cf222e}.warn,.inconclusive,.missing{color:#9a6700}.improved{color:#1a7f37}.unchanged,.new{color:#57606a}
pre{background:#f6f8fa;padding:8px;overflow:auto}small{color:#57606a}`;

function sectionTable(section: Section, rows: readonly VerdictRow[]): string {
  const head = `<tr>${COLUMNS.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr>`;
  const body = rows.map(
    (r) =>
      `<tr>${tableCells(r, HOOKS)
        .map((c, i) => (NUMERIC_COLUMNS.has(i) ? `<td class="n">${c}</td>` : `<td>${c}</td>`))
        .join('')}</tr>`,
  );
  return `<h2>${SECTION_TITLE[section]} (${rows.length})</h2>\n<table>\n${head}\n${body.join('\n')}\n</table>`;
}

export function renderHtml(report: GateReport, options: HtmlOptions = {}): string {
  const title = escapeHtml(options.title ?? 'perf-gate report');
  const outcome = outcomeOf(report);
  const groups = groupRows(report.rows);
  const side = (s: GateReport['current'] | null): string =>
    s ? `<code>${escapeHtml(s.commit ? shortCommit(s.commit) : 'unknown commit')}</code>${s.ref ? ` (${escapeHtml(s.ref)})` : ''}` : 'none';
  const parts: string[] = [
    `<h1>${title}</h1>`,
    `<p class="s ${outcome === 'fail' ? 'regressed' : outcome === 'pass' || outcome === 'resolved' ? 'improved' : 'warn'}">${outcome === 'fail' ? 'FAIL' : 'PASS'} — ${escapeHtml(verdictText(report, outcome))}</p>`,
    `<p>Baseline ${side(report.baseline)} → current ${side(report.current)}. ${escapeHtml(DELTA_EXPLAINED)}</p>`,
    ...SECTIONS.filter((s) => groups[s].length > 0).map((s) => sectionTable(s, groups[s])),
  ];
  const failed = groups.failed.filter((r) => r.error);
  if (failed.length > 0) {
    parts.push('<h2>Failure logs</h2>');
    for (const r of failed) {
      const log = r.error!.logTail ? `<pre>${escapeHtml(stripVTControlCharacters(r.error!.logTail), { multiline: true })}</pre>` : '';
      parts.push(`<details open><summary><b>${escapeHtml(r.benchmark)}</b>: ${escapeHtml(r.error!.message)}</summary>${log}</details>`);
    }
  }
  if (report.warnings.length > 0) {
    parts.push(`<h2>Warnings</h2>\n<ul>${report.warnings.map((w) => `<li>${escapeHtml(warningText(w))}</li>`).join('')}</ul>`);
  }
  const flags = flagsIn(report.rows);
  if (flags.length > 0) {
    parts.push(`<h2>Flags</h2>\n<dl>${flags.map((f) => `<dt>${f}</dt><dd>${escapeHtml(FLAG_TEXT[f])}</dd>`).join('')}</dl>`);
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
${parts.join('\n')}
</body>
</html>
`;
}
