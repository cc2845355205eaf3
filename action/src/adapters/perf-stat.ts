import { InputError, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { idFromPath } from './file-name-id.js';
import { buildMetric } from './build-metric.js';

const NOT_MEASURED = /^<not (supported|counted)>$/;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;
/** perf's units for time events; anything else with a unit keeps it, no unit is a count. */
const UNIT_SCALE: Record<string, [string, number]> = { msec: ['s', 1e-3], ns: ['s', 1e-9], usec: ['s', 1e-6], sec: ['s', 1] };

interface PerfLine {
  event: string;
  /** The counter value, or the `<not supported>`/`<not counted>` marker. */
  value: number | string;
  unit: string;
}

/**
 * `perf stat -x,` (also `-x';'`) output, as written with `-o file` or from stderr.
 * Each event becomes a metric named as perf names it (`task-clock`,
 * `page-faults`, `instructions`, `cycles:u`); its traits (instructions exact,
 * cycles not) come from the metric table under the name without the `:u`
 * modifier. `msec`/`ns` are converted to seconds; unit-less counters are counts.
 * - `-r N`: the one line per event holds perf's mean; perf does not print N, so
 *   the variance column cannot become a summary and the mean is a single value.
 * - `-I ms`: the leading timestamp is dropped and each interval's count is one
 *   sample, in time order. Several runs appended to one file (`--append`) are
 *   samples too.
 * - `<not supported>` / `<not counted>` values are never read as zero: the
 *   event gets no metric and is listed in the result's `unavailable` with
 *   perf's own words, so the report can show it (a VM without a PMU has no
 *   cycles or instructions). An interval that was not counted is left out of
 *   the samples.
 * perf does not write the command, so the id is the file name without its
 * extension (from a config, the suite supplies the name).
 */
export const perfStatAdapter: Adapter = {
  name: 'perf-stat',

  detect({ text }: AdapterInput) {
    const first = text
      .slice(0, 8192)
      .split('\n')
      .find((l) => l.trim() !== '' && !l.startsWith('#'));
    if (first === undefined) return { match: false, reason: 'no perf stat line' };
    const sep = separatorOf(first);
    if (!sep) return { match: false, reason: 'first line is not perf stat -x, or -x; CSV' };
    const parsed = parseLine(first, sep);
    return typeof parsed === 'string' ? { match: false, reason: `first line is not a perf stat -x record: ${parsed}` } : { match: true };
  },

  parse({ text, path, name }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, 'the file is empty; expected perf stat -x, output (one "value,unit,event,…" line per event)');
    const lines = text.split('\n');
    const firstData = lines.find((l) => l.trim() !== '' && !l.startsWith('#'));
    const sep = firstData ? separatorOf(firstData) : undefined;
    if (!sep) throw new InputError(path, 'expected perf stat -x, (or -x;) lines such as "1.15,msec,task-clock,1150586,100.00,0.417,CPUs utilized"', 1);
    const values = new Map<string, { unit: string; numbers: number[]; missing: string[] }>();
    lines.forEach((raw, i) => {
      const line = raw.replace(/\r$/, '');
      if (line.trim() === '' || line.startsWith('#') || !line.includes(sep)) return;
      const parsed = parseLine(line, sep);
      if (typeof parsed === 'string')
        throw new InputError(path, `${parsed} in ${JSON.stringify(line.slice(0, 120))} (truncated or not perf stat -x output?)`, i + 1);
      if (parsed.event === '') return; // a metric-only continuation line
      const entry = values.get(parsed.event) ?? { unit: parsed.unit, numbers: [], missing: [] };
      if (typeof parsed.value === 'number') entry.numbers.push(parsed.value);
      else entry.missing.push(parsed.value);
      values.set(parsed.event, entry);
    });
    if (values.size === 0) throw new InputError(path, 'no perf stat event line found; expected "value,unit,event,run-time,percent" lines', 1);

    const metrics: Record<string, Metric> = {};
    const unavailable: Record<string, string> = {};
    for (const [event, entry] of values) {
      if (entry.numbers.length === 0) {
        unavailable[event] = entry.missing[0]!;
        continue;
      }
      const [unit, scale] = UNIT_SCALE[entry.unit] ?? [entry.unit === '' ? 'count' : entry.unit, 1];
      const scaled = entry.numbers.map((v) => v * scale);
      metrics[event] = buildMetric(event, unit, scaled.length === 1 ? { value: scaled[0]! } : { samples: scaled }, {
        sourceUnit: entry.unit === '' ? 'count' : entry.unit,
        traitsName: event.replace(/:[a-zA-Z]+$/, ''),
      });
    }
    const result: BenchmarkResult = { id: name ?? idFromPath(path), status: 'ok', metrics };
    if (Object.keys(unavailable).length > 0) result.unavailable = unavailable;
    return [result];
  },
};

function separatorOf(line: string): string | undefined {
  if (line.includes(';') && line.split(';').length >= 5) return ';';
  if (line.split(',').length >= 5) return ',';
  return undefined;
}

/** One perf stat -x record, or why it is not one. */
function parseLine(line: string, sep: string): PerfLine | string {
  let fields = line.split(sep).map((f) => f.trim());
  const [f0 = '', f1 = '', f2 = '', f3 = ''] = fields;
  // With -I a timestamp comes first; without it the second field is the unit, never a number.
  if (NUMBER.test(f0) && (NUMBER.test(f1) || NOT_MEASURED.test(f1) || (f1 === '' && f2 === '' && f3 === ''))) fields = fields.slice(1);
  if (fields[0] === '' && fields[2] === '') return { event: '', value: 0, unit: '' }; // a metric-only continuation line
  if (fields.length < 5) return `expected at least 5 fields (value, unit, event, run time, percent), found ${fields.length}`;
  const [valueText, unit, event] = fields as [string, string, string];
  if (!/^[A-Za-z_][\w.:/=,-]*$/.test(event)) return `expected an event name in field 3, found ${JSON.stringify(event)}`;
  const rest = fields.slice(3);
  if (rest[0] !== undefined && /%$/.test(rest[0])) rest.shift(); // -r variance, right after the event
  if (!NUMBER.test(rest[0] ?? '') || !NUMBER.test(rest[1] ?? '')) return 'expected the run time and percent running after the event';
  if (NOT_MEASURED.test(valueText)) return { event, value: valueText, unit };
  if (!NUMBER.test(valueText)) return `expected a counter value or <not supported>, found ${JSON.stringify(valueText)}`;
  return { event, value: Number(valueText), unit };
}
