import { InputError, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric, buildSummary, finiteOrUndefined } from './build-metric.js';
import { isRecord, jsonErrors, parseJsonText } from './json-text.js';

/** `String(bench)`: `name x 1,234,567 ops/sec ±1.12% (93 runs sampled)`; names may contain " x ". */
const CYCLE = /^(.+) x ([\d,]+(?:\.\d+)?) ops\/sec \u00b1(\d+(?:\.\d+)?)% \((\d+) runs? sampled\)\s*$/;
/** A line that looks like a cycle line (or one cut short); one that does not then match CYCLE is cut or corrupt. */
function looksLikeCycle(line: string): boolean {
  return / x \d/.test(line) && (line.includes('ops/sec') || / x [\d,.]+$/.test(line));
}
/**
 * `String(bench)` of a benchmark that threw: `name: <error>`, where Benchmark.js
 * 2.1.4 joins the error's own properties as `key: value` pairs (`code: E1`),
 * which is empty for a plain `Error` (the line is `name: `, with its trailing
 * space), or prints a thrown non-object as it is. Checked with the real
 * package: `plain: `, `obj: code: E1`, `str: just a string`. Only the first
 * two shapes, and a thrown `…Error…` string, are taken as errors: any other
 * `text: text` line (`npm WARN config: the message…`, a `Results:` heading) is
 * log noise, and must not fail the gate.
 */
const ERROR_LINE = /^(.+?): (?:|\w+: .*|\w*Error\b.*)$/;

/**
 * Benchmark.js (`benchmark` 2.x) has no file format of its own; two forms are read:
 * - the `cycle` lines (`String(event.target)`): ops/sec (`hz`) becomes `throughput`
 *   (1/s, higher is better), a single value; the ± and run count are kept only in
 *   the text, because a relative margin of error cannot be turned back into a
 *   spread without Benchmark.js's t table;
 * - JSON: an array of benchmarks, either `JSON.stringify(bench)` (with
 *   `stats.sample`, seconds per operation, as the time samples) or a flat
 *   `{name, hz, mean, deviation, samples: <count>}` record (a time summary).
 * Stats are in seconds. A benchmark that threw (a `name: …` line, see ERROR_LINE, or an `error`
 * key) is failed.
 */
export const benchmarkJsAdapter: Adapter = {
  name: 'benchmarkjs',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 65536);
    if (/^\s*\[/.test(head)) {
      if (/"hz"\s*:/.test(head) && (/"deviation"\s*:/.test(head) || /"stats"\s*:/.test(head))) return { match: true };
      return { match: false, reason: 'a JSON array without Benchmark.js "hz" and "stats"/"deviation" keys' };
    }
    if (head.split('\n').some((line) => CYCLE.test(line.trimEnd()))) return { match: true };
    return { match: false, reason: 'no "<name> x <n> ops/sec ±<r>% (<k> runs sampled)" line' };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, 'the file is empty; expected Benchmark.js cycle lines or JSON');
    return /^\s*\[/.test(text) ? parseJson(text, path) : parseLines(text, path);
  },
};

function parseLines(text: string, path: string): BenchmarkResult[] {
  const results: BenchmarkResult[] = [];
  let cycles = 0;
  const lines = text.split('\n');
  lines.forEach((raw, i) => {
    const line = raw.trimEnd();
    const cycle = CYCLE.exec(line);
    if (cycle) {
      cycles++;
      const hz = Number(cycle[2]!.replace(/,/g, ''));
      results.push({
        id: cycle[1]!,
        status: 'ok',
        metrics: { throughput: buildMetric('throughput', '1/s', { value: hz }, { sourceUnit: 'ops/sec' }) },
      });
      return;
    }
    if (looksLikeCycle(line)) {
      throw new InputError(path, `expected "<name> x <n> ops/sec ±<r>% (<k> runs sampled)", found ${JSON.stringify(line.slice(0, 120))} (cut short?)`, i + 1);
    }
    // The untrimmed line: a plain Error's `name: ` differs from a `Results:` heading only by its trailing space.
    const error = ERROR_LINE.exec(raw.replace(/\r$/, ''));
    if (error) {
      const message = error[0].slice(error[1]!.length + 2).trim();
      results.push({ id: error[1]!, status: 'failed', error: { message: message || 'the benchmark threw' }, metrics: {} });
    }
  });
  // Without a single cycle line the `name: …` lines are someone else's log, not Benchmark.js output.
  if (cycles === 0) {
    throw new InputError(path, 'no Benchmark.js cycle line ("<name> x <n> ops/sec ±<r>% (<k> runs sampled)") found');
  }
  return results;
}

function parseJson(text: string, path: string): BenchmarkResult[] {
  const data = parseJsonText(text, path, 'a JSON array of Benchmark.js benchmarks');
  if (!Array.isArray(data) || data.length === 0) {
    throw new InputError(path, 'expected a non-empty JSON array of Benchmark.js benchmarks ({name, hz, stats})', 1);
  }
  const errors = jsonErrors(text, path);
  return data.map((bench, index) => {
    if (!isRecord(bench) || typeof bench.name !== 'string') {
      throw errors.error(isRecord(bench) ? [index, 'name'] : [index], 'expected an object with a "name" string');
    }
    if (bench.error !== undefined && bench.error !== null && bench.error !== false) {
      const message = isRecord(bench.error) && typeof bench.error.message === 'string' ? bench.error.message : 'the benchmark threw';
      return { id: bench.name, status: 'failed', error: { message }, metrics: {} };
    }
    const metrics: Record<string, Metric> = {};
    const stats = isRecord(bench.stats) ? bench.stats : bench;
    const sample = Array.isArray(stats.sample) ? stats.sample : undefined;
    if (sample && sample.length > 0) {
      const samples = sample.map((v, i) => {
        const s = finiteOrUndefined(v);
        if (s === undefined || s < 0) throw errors.error([index, 'stats', 'sample', i], `expected seconds per operation, found ${JSON.stringify(v)}`);
        return s;
      });
      metrics.time = buildMetric('time', 's', { samples }, { sourceUnit: 's' });
    } else {
      const summary = buildSummary({ n: stats.samples ?? bench.samples, mean: stats.mean, stddev: stats.deviation });
      if (summary) metrics.time = buildMetric('time', 's', { summary }, { sourceUnit: 's' });
    }
    const hz = finiteOrUndefined(bench.hz);
    if (hz !== undefined && hz > 0) metrics.throughput = buildMetric('throughput', '1/s', { value: hz }, { sourceUnit: 'ops/sec' });
    if (Object.keys(metrics).length === 0) {
      throw errors.error([index], `expected "hz" (ops/sec) or "stats" (seconds) for "${bench.name}"`);
    }
    return { id: bench.name, status: 'ok', metrics };
  });
}
