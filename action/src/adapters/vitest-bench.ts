import { InputError, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric, buildSummary, finiteOrUndefined } from './build-metric.js';
import { isRecord, jsonErrors, parseJsonText, type JsonErrors, type JsonPath } from './json-text.js';

const MS = 1e-3;

/**
 * vitest bench JSON (`vitest bench --run --outputJson out.json`):
 * `{files: [{filepath, groups: [{fullName, benchmarks: [{name, hz, mean, sd,
 * min, max, median, p75 …, sampleCount, samples}]}]}]}`, times in milliseconds
 * (vitest runs tinybench 2 underneath).
 *
 * The id is the group's `fullName` (`file.bench.ts > describe`) and the
 * benchmark's name, joined with " > " as vitest writes them. `time` (seconds)
 * is the raw `samples` when there are any, else the summary (`sampleCount`,
 * `mean`, `sd`, `median`, `min`, `max`). vitest 4 always writes `samples: []`
 * into this file (its `benchmark.includeSamples` option only keeps them in
 * memory), so current files give the summary; older files with samples give
 * them, in the order written (tinybench 2 sorts them, so not run order).
 * `hz` becomes `throughput` (1/s, higher is better) as one value. A benchmark
 * that threw has only its name, rank and an empty `samples`: it is failed,
 * never dropped.
 */
export const vitestBenchAdapter: Adapter = {
  name: 'vitest-bench',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 65536);
    if (!/^\s*\{\s*"files"\s*:\s*\[/.test(head)) return { match: false, reason: 'not a JSON object starting with a "files" array' };
    if (!/"groups"\s*:/.test(head) || !/"fullName"\s*:/.test(head)) return { match: false, reason: 'no vitest "groups" / "fullName" keys' };
    return { match: true };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    const what = 'vitest bench JSON ({"files": [{"groups": [{"fullName", "benchmarks": [...]}]}]})';
    const data = parseJsonText(text, path, what);
    const errors = jsonErrors(text, path);
    if (!isRecord(data) || !Array.isArray(data.files)) throw new InputError(path, `expected ${what}`, 1);
    const results: BenchmarkResult[] = [];
    data.files.forEach((file, f) => {
      const groups = isRecord(file) ? file.groups : undefined;
      if (!Array.isArray(groups)) throw errors.error(['files', f, 'groups'], 'expected a "groups" array');
      groups.forEach((group, g) => {
        const at: JsonPath = ['files', f, 'groups', g];
        if (!isRecord(group) || typeof group.fullName !== 'string' || !Array.isArray(group.benchmarks)) {
          throw errors.error(at, 'expected a group with a "fullName" string and a "benchmarks" array');
        }
        const fullName = group.fullName;
        group.benchmarks.forEach((bench, b) => results.push(parseBenchmark(bench, fullName, [...at, 'benchmarks', b], errors)));
      });
    });
    if (results.length === 0) throw errors.error(['files'], 'no benchmarks in any file (did the filter match nothing?)');
    const seen = new Set<string>();
    for (const r of results) {
      if (seen.has(r.id)) throw new InputError(path, `benchmark "${r.id}" appears twice; each name must be unique within its group`);
      seen.add(r.id);
    }
    return results;
  },
};

function parseBenchmark(bench: unknown, fullName: string, at: JsonPath, errors: JsonErrors): BenchmarkResult {
  if (!isRecord(bench) || typeof bench.name !== 'string') throw errors.error(at, 'expected a benchmark with a "name" string');
  const id = `${fullName} > ${bench.name}`;
  const samples = Array.isArray(bench.samples) ? bench.samples : [];
  if (bench.mean === undefined && bench.sampleCount === undefined && samples.length === 0) {
    return {
      id,
      status: 'failed',
      error: { message: 'vitest recorded no result for this benchmark (it threw or never ran; its error is in the vitest output)' },
      metrics: {},
    };
  }
  const summary = buildSummary(
    {
      n: bench.sampleCount ?? (samples.length > 0 ? samples.length : undefined),
      mean: bench.mean,
      stddev: bench.sd,
      median: bench.median,
      min: bench.min,
      max: bench.max,
    },
    MS,
  );
  const metrics: Record<string, Metric> = {};
  if (samples.length > 0) {
    const seconds = samples.map((v, i) => {
      const ms = finiteOrUndefined(v);
      if (ms === undefined || ms < 0) throw errors.error([...at, 'samples', i], `expected milliseconds, found ${JSON.stringify(v)}`);
      return ms * MS;
    });
    metrics.time = buildMetric('time', 's', summary ? { samples: seconds, summary } : { samples: seconds }, { sourceUnit: 'ms' });
  } else if (summary && summary.mean >= 0) {
    metrics.time = buildMetric('time', 's', { summary }, { sourceUnit: 'ms' });
  } else {
    throw errors.error(
      [...at, summary || finiteOrUndefined(bench.mean) === undefined ? 'mean' : 'sampleCount'],
      `expected "sampleCount" (a whole number) and "mean" (ms) for "${id}"`,
    );
  }
  const hz = finiteOrUndefined(bench.hz);
  if (hz !== undefined && hz > 0) metrics.throughput = buildMetric('throughput', '1/s', { value: hz }, { sourceUnit: 'ops/s' });
  return { id, status: 'ok', metrics };
}
