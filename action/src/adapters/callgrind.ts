import { InputError, type BenchmarkResult } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';

/**
 * valgrind callgrind output files (`callgrind.out.<pid>`). `instructions` is the
 * `Ir` column of the `totals:` line (callgrind writes it last, so a missing one
 * means the file is cut short; `summary:` can differ from it with cache
 * simulation, so it is never mixed in). Several parts (`--dump-every-bb`,
 * `--dump-before`) are summed. Instruction counts are exact: the same binary and
 * input give the same count, so no statistical test is needed. The id is the
 * `cmd:` line.
 */
export const callgrindAdapter: Adapter = {
  name: 'callgrind',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 4096);
    if (/^# callgrind format/.test(head)) return { match: true };
    if (/^creator: callgrind/m.test(head) && /^events: /m.test(head)) return { match: true };
    return { match: false, reason: 'no "# callgrind format" header or "creator: callgrind" line' };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, 'the file is empty; expected a callgrind.out file');
    const lines = text.split('\n');
    let cmd: string | undefined;
    let events: string[] | undefined;
    let instructions = 0;
    let totalsSeen = 0;
    lines.forEach((raw, i) => {
      const line = raw.replace(/\r$/, '');
      if (line.startsWith('cmd:')) cmd = line.slice(4).trim();
      else if (line.startsWith('events:')) events = line.slice(7).trim().split(/\s+/);
      else if (line.startsWith('totals:')) {
        if (!events) throw new InputError(path, 'a "totals:" line comes before the "events:" line', i + 1);
        const column = events.indexOf('Ir');
        if (column < 0)
          throw new InputError(path, `the events (${events.join(' ')}) do not include Ir (instructions); collect Ir, callgrind's default event`, i + 1);
        const value = line.slice(7).trim().split(/\s+/)[column];
        if (value === undefined || !/^\d+$/.test(value))
          throw new InputError(path, `expected a whole instruction count in column ${column + 1} of "totals:", found ${JSON.stringify(line)}`, i + 1);
        instructions += Number(value);
        totalsSeen++;
      }
    });
    if (!events) throw new InputError(path, 'no "events:" line; expected a callgrind output file', 1);
    if (totalsSeen === 0) throw new InputError(path, 'no "totals:" line; the callgrind file is truncated (callgrind writes it last)', lines.length);
    return [
      { id: cmd || 'callgrind', status: 'ok', metrics: { instructions: buildMetric('instructions', 'count', { value: instructions }, { sourceUnit: 'Ir' }) } },
    ];
  },
};
