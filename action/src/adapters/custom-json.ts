import type { BenchmarkResult, Direction } from '../model/index.js';
import type { Adapter, AdapterInput, Detection } from './adapter.js';
import { gabUnit } from './gab-units.js';
import { isRecord, jsonErrors, parseJsonText } from './json-text.js';

/**
 * github-action-benchmark's custom JSON (its `customSmallerIsBetter` and
 * `customBiggerIsBetter` tools): a JSON array of
 * `{ "name": string, "unit": string, "value": number, "range"?: string|number, "extra"?: string }`,
 * one entry per benchmark. This is the format most users of that action write
 * by hand, so reading it is their migration path.
 *
 * Which way is better is not in the file: the tool name said it. So the same
 * file is two formats, `custom-smaller` and `custom-bigger`, chosen with
 * `--format` or `format:` of a suite, and auto-detection never guesses: detect
 * declines every file, and for one that looks like custom JSON its reason says
 * which format to give (it is listed when no format matches).
 *
 * `value` is one number per benchmark (no samples), so each becomes a single
 * value compared by the tolerance. `unit` is mapped by gab-units.ts: time,
 * byte and rate units become base units (`ns` → s, `bytes`/`MB` → B, `req/s`
 * → 1/s), any other unit (`Percent`, `Megabytes`) stays the metric's own name
 * and unit. The direction is always the chosen format's, whatever the unit,
 * as in github-action-benchmark. `range` ("± 3%", "+/- 0.2", a number) and
 * `extra` are informational and not read. A name used twice is an error: the
 * action would plot them as one series, perf-gate cannot compare them.
 */
function customJsonAdapter(name: string, direction: Direction): Adapter {
  return {
    name,
    detect: detectCustomJson,
    parse: (input) => parseCustomJson(input, name, direction),
  };
}

export const customSmallerAdapter: Adapter = customJsonAdapter('custom-smaller', 'lower');
export const customBiggerAdapter: Adapter = customJsonAdapter('custom-bigger', 'higher');

/** The decline reason for a file that is custom JSON: what the user must say. */
export const CUSTOM_JSON_HINT =
  'github-action-benchmark custom JSON: its direction is not in the file; give --format custom-smaller or custom-bigger (format: in perf-gate.yml)';

/** Never a match: a file that looks like custom JSON gets the hint as its reason. */
function detectCustomJson({ text }: AdapterInput): Detection {
  if (looksLikeCustomJson(text)) return { match: false, reason: CUSTOM_JSON_HINT };
  return {
    match: false,
    reason: 'not github-action-benchmark custom JSON ([{"name", "unit", "value"}]); read only with --format custom-smaller or custom-bigger',
  };
}

/** A JSON array whose first object has "name", "unit" and "value" keys. */
export function looksLikeCustomJson(text: string): boolean {
  const head = text.slice(0, 4096);
  const first = /^\s*\[\s*\{([^{}]*)\}/.exec(head);
  return first !== null && ['name', 'unit', 'value'].every((key) => new RegExp(`"${key}"\\s*:`).test(first[1]!));
}

function parseCustomJson({ text, path }: AdapterInput, format: string, direction: Direction): BenchmarkResult[] {
  const what = `github-action-benchmark custom JSON ([{"name": …, "unit": …, "value": …}]) for --format ${format}`;
  const data = parseJsonText(text, path, what);
  const errors = jsonErrors(text, path);
  if (!Array.isArray(data)) throw errors.error([], `expected a JSON array; found ${data === null ? 'null' : typeof data}: ${what}`);
  if (data.length === 0) throw errors.error([], 'the array is empty; expected at least one {"name", "unit", "value"} entry');
  const seen = new Map<string, number>();
  return data.map((entry: unknown, i): BenchmarkResult => {
    if (!isRecord(entry)) throw errors.error([i], 'expected an object {"name": string, "unit": string, "value": number}');
    if (typeof entry.name !== 'string' || entry.name.trim() === '')
      throw errors.error([i, 'name'], `expected a non-empty "name" string, found ${JSON.stringify(entry.name)}`);
    if (typeof entry.unit !== 'string') throw errors.error([i, 'unit'], `expected a "unit" string, found ${JSON.stringify(entry.unit)}`);
    if (typeof entry.value !== 'number' || !Number.isFinite(entry.value)) {
      throw errors.error([i, 'value'], `expected a finite number in "value", found ${JSON.stringify(entry.value)}`);
    }
    const earlier = seen.get(entry.name);
    if (earlier !== undefined) {
      throw errors.error([i, 'name'], `benchmark "${entry.name}" appears twice (entries ${earlier} and ${i}); each name must be unique`);
    }
    seen.set(entry.name, i);
    const mapped = gabUnit(entry.unit);
    return {
      id: entry.name,
      status: 'ok',
      metrics: {
        [mapped.metric]: { unit: mapped.unit, direction, value: entry.value * mapped.scale, sourceUnit: entry.unit },
      },
    };
  });
}
