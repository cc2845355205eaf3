import { InputError, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric, buildSummary, finiteOrUndefined } from './build-metric.js';
import { isRecord, jsonErrors, parseJsonText, type JsonErrors } from './json-text.js';

const MS = 1e-3;

/**
 * tinybench task results, serialised by the user as a JSON array of
 * `{name, result}` (`bench.tasks.map(({name, result}) => ({name, result}))`).
 * tinybench ≥ 3 has `result.latency` (milliseconds) and `result.throughput`
 * (ops/s); 2.x has a flat result (`mean`, `sd`, `samples` in ms, `hz`). Latency
 * becomes `time` in seconds, with `latency.samples` (only with retainSamples;
 * tinybench keeps them sorted, not in run order) or the summary; throughput
 * becomes `throughput` (1/s, higher is better) as a summary. An `errored` or
 * aborted task, or one with `error`, is failed.
 */
export const tinybenchAdapter: Adapter = {
  name: 'tinybench',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 65536);
    if (!/^\s*\[/.test(head)) return { match: false, reason: 'not a JSON array of {name, result}' };
    if (!/"result"\s*:/.test(head)) return { match: false, reason: 'no tinybench "result" key' };
    if (!/"(latency|period|totalTime)"\s*:/.test(head)) return { match: false, reason: 'no tinybench "latency"/"period" keys' };
    return { match: true };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    const data = parseJsonText(text, path, 'a JSON array of tinybench tasks ({name, result})');
    if (!Array.isArray(data) || data.length === 0) {
      throw new InputError(path, 'expected a non-empty JSON array of tinybench tasks ({name, result})', 1);
    }
    const errors = jsonErrors(text, path);
    return data.map((task, index) => parseTask(task, index, errors));
  },
};

function parseTask(task: unknown, index: number, errors: JsonErrors): BenchmarkResult {
  if (!isRecord(task) || typeof task.name !== 'string')
    throw errors.error(isRecord(task) ? [index, 'name'] : [index], 'expected an object with a "name" string');
  const result = task.result;
  if (!isRecord(result)) {
    throw errors.error([index, 'result'], `expected "result" to be an object for "${task.name}" (a task that never ran has no result)`);
  }
  const state = typeof result.state === 'string' ? result.state : undefined;
  if ((state !== undefined && !['completed', 'aborted-with-statistics'].includes(state)) || (result.error !== undefined && result.error !== null)) {
    const message =
      isRecord(result.error) && typeof result.error.message === 'string' && result.error.message !== ''
        ? result.error.message
        : `tinybench task ${state ?? 'errored'}`;
    return { id: task.name, status: 'failed', error: { message }, metrics: {} };
  }
  const latency = isRecord(result.latency) ? result.latency : result;
  const latencyAt = isRecord(result.latency) ? [index, 'result', 'latency'] : [index, 'result'];
  const metrics: Record<string, Metric> = {};
  const summary = buildSummary(
    {
      n: latency.samplesCount ?? (Array.isArray(latency.samples) ? latency.samples.length : undefined),
      mean: latency.mean,
      stddev: latency.sd,
      median: latency.p50,
      min: latency.min,
      max: latency.max,
    },
    MS,
  );
  const rawSamples = Array.isArray(latency.samples) && latency.samples.length > 0 ? latency.samples : undefined;
  if (rawSamples) {
    const samples = rawSamples.map((v, i) => {
      const ms = finiteOrUndefined(v);
      if (ms === undefined || ms < 0) throw errors.error([...latencyAt, 'samples', i], `expected milliseconds, found ${JSON.stringify(v)}`);
      return ms * MS;
    });
    metrics.time = buildMetric('time', 's', summary ? { samples, summary } : { samples }, { sourceUnit: 'ms' });
  } else if (summary) {
    metrics.time = buildMetric('time', 's', { summary }, { sourceUnit: 'ms' });
  } else {
    throw errors.error(latencyAt, `expected "latency" with "samplesCount" and "mean" (ms) for "${task.name}"`);
  }
  const tp = isRecord(result.throughput) ? result.throughput : undefined;
  const tpSummary = tp ? buildSummary({ n: tp.samplesCount, mean: tp.mean, stddev: tp.sd, median: tp.p50, min: tp.min, max: tp.max }) : undefined;
  if (tpSummary) metrics.throughput = buildMetric('throughput', '1/s', { summary: tpSummary }, { sourceUnit: 'ops/s' });
  else if (finiteOrUndefined(result.hz) !== undefined)
    metrics.throughput = buildMetric('throughput', '1/s', { value: result.hz as number }, { sourceUnit: 'ops/s' });
  return { id: task.name, status: 'ok', metrics };
}
