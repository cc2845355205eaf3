/**
 * The differential profiles of a report, for people: per confirmed
 * regression, where its flame graph and folded stacks are, and the functions
 * whose inclusive cost grew most. Function names come from the measured
 * program (untrusted): escaped in each face.
 */
import type { ProfileSection, RegressionProfile } from '../model/index.js';
import { escapeMarkdown } from './escape-markdown.js';
import { escapeTerminal } from './escape-terminal.js';
import { formatPercent, formatPercentNumber, formatValue, scaleFor } from './format.js';

/** Longest function name shown (C++ templates run to kilobytes). */
const NAME_CHARS = 120;
/** Profiles shown in full; the rest are named. */
const PROFILES_SHOWN = 5;

const cut = (name: string): string => (name.length > NAME_CHARS ? `${name.slice(0, NAME_CHARS - 1)}…` : name);

/** The function's name, with its program when the table holds more than one (cargo's and the benchmark's). */
function nameIn(p: RegressionProfile, f: RegressionProfile['top'][number]): string {
  return cut(new Set(p.top.map((t) => t.process)).size > 1 ? `${f.function} (${f.process})` : f.function);
}

function costs(p: RegressionProfile, value: number): string {
  return formatValue(value, scaleFor('count', [p.totals.before, p.totals.after]));
}

/** One side of a function: "13.21 M (20.7 %)" with callgrind's instructions; the share alone with perf's sample weights. */
function side(p: RegressionProfile, cost: number, share: number): string {
  const pct = `${(share * 100).toFixed(1)} %`;
  return p.profiler === 'callgrind' ? `${costs(p, cost)} (${pct})` : pct;
}

/** "+29.8 points": a share's growth, in points of the total. */
function gain(growth: number): string {
  return `${formatPercentNumber(growth)} points`;
}

/** "callgrind, 1.23 G → 1.52 G instructions (+23.4 %), 14.2 s" */
function summaryOf(p: RegressionProfile): string {
  const change = p.totals.before > 0 ? ` (${formatPercent(p.totals.after / p.totals.before - 1)})` : '';
  const total = p.profiler === 'callgrind' ? `, ${costs(p, p.totals.before)} → ${costs(p, p.totals.after)} ${p.countName}${change}` : '';
  return `${p.profiler}${total}, ${p.seconds.toFixed(1)} s`;
}

function headline(section: ProfileSection): string {
  return `profiles of ${section.profiles.length} confirmed regression(s) in ${section.seconds.toFixed(1)} s (cap ${section.cap} s); they never change the verdict`;
}

/** The "Why it got slower" block of the Markdown report, or ''. */
export function markdownProfiles(section: ProfileSection | undefined): string {
  if (section === undefined) return '';
  const where = section.artifactUrl ? ` in [the run's artifacts](${section.artifactUrl})` : ' in the output folder';
  const blocks = section.profiles.slice(0, PROFILES_SHOWN).map((p) => {
    const files = [p.files.flameGraph ? `flame graph \`${p.files.flameGraph}\`` : null, `folded stacks \`${p.files.base}\`, \`${p.files.head}\``]
      .filter(Boolean)
      .join('; ');
    const table =
      p.top.length === 0
        ? '_No function’s share of the work grew beyond the noise: the slowdown is spread over everything (a compiler, a flag, the machine), not one function._'
        : [
            '| Function | Base | Head | Gain |',
            '| :-- | --: | --: | --: |',
            ...p.top.map(
              (f) => `| ${escapeMarkdown(nameIn(p, f))} | ${side(p, f.before, f.shareBefore)} | ${side(p, f.after, f.shareAfter)} | ${gain(f.growth)} |`,
            ),
          ].join('\n');
    return `<details open><summary><b>${escapeMarkdown(p.benchmark)}</b> (${escapeMarkdown(summaryOf(p))})</summary>\n\n${files}${where}.\n\n${table}\n\n</details>`;
  });
  const more = section.profiles.length > PROFILES_SHOWN ? [`… and ${section.profiles.length - PROFILES_SHOWN} more in the JSON report`] : [];
  const warnings = section.warnings.map((w) => `- ⚠️ ${escapeMarkdown(w)}`);
  return [
    '**Why it got slower**',
    `<sub>${escapeMarkdown(headline(section))}. Base and head: each function's inclusive cost and its share of its process's total; gain: how many points that share grew.</sub>`,
    ...blocks,
    ...more,
    ...(warnings.length > 0 ? [warnings.join('\n')] : []),
  ].join('\n\n');
}

/** The same for the terminal: lines, without colour. */
export function terminalProfiles(section: ProfileSection | undefined): string[] {
  if (section === undefined) return [];
  const lines = [`  ${headline(section)}`];
  for (const p of section.profiles) {
    lines.push(`  ${escapeTerminal(p.benchmark)} (${summaryOf(p)})`);
    if (p.files.flameGraph) lines.push(`    flame graph: ${escapeTerminal(p.files.flameGraph)}`);
    lines.push(`    folded stacks: ${escapeTerminal(p.files.base)}, ${escapeTerminal(p.files.head)}`);
    if (p.top.length === 0) lines.push('    no function’s share of the work grew beyond the noise: the slowdown is spread over everything');
    for (const f of p.top)
      lines.push(
        `    ${gain(f.growth).padStart(14)}  ${side(p, f.before, f.shareBefore)} → ${side(p, f.after, f.shareAfter)}  ${escapeTerminal(nameIn(p, f))}`,
      );
  }
  for (const w of section.warnings) lines.push(`  - ${escapeTerminal(w)}`);
  return lines;
}
