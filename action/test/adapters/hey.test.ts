import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { heyAdapter as adapter } from '../../src/adapters/hey.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { startLoadServer, type LoadServer } from '../support/load-server.js';
import { runToolAsync } from '../support/system-tools.js';
import { adapterContract, FIXTURES, parseFile, parseText } from './adapter-contract.js';
import { requireTool } from '../support/tools.js';

const fixture = (name: string): string => join(FIXTURES, 'hey', name);
const okText = readFileSync(fixture('hey-0.1.5-ok.txt'), 'utf8');

/** A figure of hey's summary as printed, for comparison with the parse. */
function printed(text: string, label: string): number {
  return Number(new RegExp(`^\\s+${label}:\\s+(\\S+)`, 'm').exec(text)![1]);
}

describe('hey adapter on real hey runs against a loopback server', () => {
  let server: LoadServer;
  const out: Record<string, string> = {};
  const parsed: Record<string, BenchmarkResult> = {};

  before(async () => {
    const hey = requireTool('hey');
    server = await startLoadServer();
    for (const path of ['/', '/half-500']) {
      // Bounded: 400 requests, 4 workers, 5 s per request at most; asynchronously, since this process serves them.
      out[path] = (await runToolAsync(hey, ['-n', '400', '-c', '4', '-t', '5', `${server.base}${path}`], { timeoutMs: 30_000 })).stdout;
      parsed[path] = parseText(adapter, out[path]!, `hey${path.replace('/', '-')}.txt`)[0]!;
    }
  });
  after(() => server?.close());

  test('auto-detection picks hey', () => {
    assert.equal(chooseAdapter(fileInput('hey.txt', out['/']!)).name, 'hey');
  });

  test("requests/sec, the average and the slowest are hey's own figures, in base units", () => {
    const r = parsed['/']!;
    assert.equal(r.metrics.requests_per_sec!.value, printed(out['/']!, 'Requests/sec'));
    assert.equal(r.metrics.latency_mean!.value, printed(out['/']!, 'Average'));
    assert.equal(r.metrics.latency_max!.value, printed(out['/']!, 'Slowest'));
    const ps = ['latency_p10', 'latency_p25', 'latency_p50', 'latency_p75', 'latency_p90', 'latency_p95', 'latency_p99'].map((k) => r.metrics[k]!.value!);
    assert.deepEqual(
      [...ps].sort((a, b) => a - b),
      ps,
    );
    assert.equal(r.metrics.errors!.value, 0);
    assert.equal(r.metrics.error_ratio!.value, 0);
  });

  test('every other answer a 500: errors.status counts 200 of 400, error_ratio is one half', () => {
    const r = parsed['/half-500']!;
    assert.equal(r.metrics['errors.status']!.value, 200);
    assert.equal(r.metrics.errors!.value, 200);
    assert.equal(r.metrics.error_ratio!.value, 0.5);
    assert.equal(r.metrics['errors.status']!.exact, true);
    assert.equal(r.metrics.error_ratio!.direction, 'lower');
  });
});

describe('hey adapter on the committed summaries', () => {
  test('hey 0.1.5 prints "10%% in", hey 0.1.2 "10% in": both are percentiles', () => {
    const now = parseFile(adapter, fixture('hey-0.1.5-ok.txt'))[0]!;
    const old = parseFile(adapter, fixture('hey-0.1.2-ok.txt'))[0]!;
    assert.equal(now.metrics.latency_p50!.value, 0.0006);
    assert.equal(old.metrics.latency_p50!.value, 0.0004);
    assert.equal(now.metrics.requests_per_sec!.value, 4579.2503);
    // Total data 192591 bytes over Total 2.0027 secs.
    assert.ok(Math.abs(now.metrics.transfer_per_sec!.value! - 192591 / 2.0027) < 1e-6);
  });

  test('nothing listening: every request in the error distribution, a failed row', () => {
    const [r] = parseFile(adapter, fixture('hey-0.1.5-refused.txt'));
    assert.equal(r!.status, 'failed');
    assert.match(r!.error!.message, /no answer to any of its 20 requests: Get .*connection refused/);
  });

  test('several summaries in one file are runs: samples in order', () => {
    const [r] = parseText(adapter, okText + okText.replace('Requests/sec:\t4579.2503', 'Requests/sec:\t4000'), 'two.txt');
    assert.deepEqual(r!.metrics.requests_per_sec!.samples, [4579.2503, 4000]);
  });

  adapterContract(adapter, 'hey', [
    { name: 'truncated', text: okText.slice(0, okText.indexOf('Response time histogram')), line: true },
    { name: 'corrupt', text: okText.replace('50%% in 0.0006 secs', '50%% in fast'), line: true },
    { name: 'corrupt status', text: okText.replace('[200]\t9171 responses', '[200]\tmany responses'), line: true },
  ]);
});
