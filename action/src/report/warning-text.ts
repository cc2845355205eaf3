import type { GateWarning } from '../gate/types.js';
import { testbedMismatchText } from '../model/index.js';
import { formatTolerance } from './format.js';

/** How many ignored benchmarks (or skipped files) a warning names before it says "…". */
const IGNORED_SHOWN = 5;

/**
 * The one place a gate warning becomes words: a sentence that says what
 * happened and what to do next. Every reporter and the JSON report's
 * `message` use it. The testbed sentence is model's, shared with the error
 * the gate throws when it refuses a mismatch.
 */
export function warningText(warning: GateWarning): string {
  if ('text' in warning) return warning.text;
  switch (warning.code) {
    case 'unused-budget': {
      const { file, line } = warning.source;
      return `${file}${line ? `:${line}` : ''}: the glob "${warning.pattern}" matches no benchmark; check it against the benchmark ids in the report.`;
    }
    case 'unused-budget-metric': {
      const { file, line } = warning.source;
      return `${file}${line ? `:${line}` : ''}: no benchmark matched by "${warning.pattern}" reports ${warning.metric}, so this budget never applies; check the metric against the report's rows.`;
    }
    case 'different-testbed':
      return testbedMismatchText(warning);
    case 'no-baseline':
      return 'no baseline was given: every benchmark is new and only the budgets decide. Store a baseline from the main branch (mode: main) to catch regressions.';
    case 'ignored-benchmarks': {
      const ids = warning.benchmarks;
      return `${ids.length} benchmark(s) ignored by the budgets: ${ids.slice(0, IGNORED_SHOWN).join(', ')}${ids.length > IGNORED_SHOWN ? ', …' : ''}`;
    }
    case 'skipped-files': {
      const { files } = warning;
      const shown = files
        .slice(0, IGNORED_SHOWN)
        .map((f) => `${f.path} (${f.reason})`)
        .join('; ');
      return `${files.length} file(s) in the input folders were not read as results: ${shown}${files.length > IGNORED_SHOWN ? '; …' : ''}. If one should have been, name it directly to see why it is not recognised.`;
    }
    case 'unknown-direction':
      return `${warning.benchmark}: the input does not say which way is better for ${warning.metrics.join(', ')}, so they are compared as lower-is-better and the verdict may be backwards. Set \`direction: higher\` or \`direction: lower\` for them in the budgets.`;
    case 'unsteady-counts':
      return `${warning.benchmark}: ${warning.metrics.map((m) => `${m.metric} moved ${formatTolerance(m.spread)} between identical runs (tolerance ${formatTolerance(m.tolerance)})`).join(', ')}: these counts are not deterministic here, so their verdict cannot be trusted. Remove the cause (address-space randomisation, environment size, hash seeds, a JIT's warm-up) or set a wider \`regression:\` for them in the budgets.`;
    case 'unavailable-metrics':
      return `${warning.benchmark}: ${warning.metrics.map((m) => `${m.metric} ${m.why}`).join(', ')}: the tool could not measure these here (often no hardware counters in a VM), so they are not gated. Run on a machine that has them, or drop them from the suite.`;
  }
}
