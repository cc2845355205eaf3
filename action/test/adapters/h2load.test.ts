import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { h2loadAdapter as adapter } from '../../src/adapters/h2load.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { startLoadServer, type LoadServer } from '../support/load-server.js';
import { runToolAsync } from '../support/system-tools.js';
import { adapterContract, FIXTURES, parseFile, parseText } from './adapter-contract.js';
import { requireTool } from '../support/tools.js';

const fixture = (name: string): string => join(FIXTURES, 'h2load', name);
const okText = readFileSync(fixture('h2load-1.52-h1-ok.txt'), 'utf8');

describe('h2load adapter on real h2load runs against a loopback server', () => {
  let server: LoadServer;
  const out: Record<string, string> = {};
  const parsed: Record<string, BenchmarkResult> = {};

  before(async () => {
    const h2load = requireTool('h2load');
    server = await startLoadServer();
    for (const path of ['/', '/half-500']) {
      // Bounded: 400 requests over 4 HTTP/1.1 connections; asynchronously, since this process serves them.
      out[path] = (await runToolAsync(h2load, ['--h1', '-n', '400', '-c', '4', `${server.base}${path}`], { timeoutMs: 30_000 })).stdout;
      parsed[path] = parseText(adapter, out[path]!, `h2load${path.replace('/', '-')}.txt`)[0]!;
    }
  });
  after(() => server?.close());

  test('auto-detection picks h2load', () => {
    assert.equal(chooseAdapter(fileInput('h2load.txt', out['/']!)).name, 'h2load');
  });

  test("req/s is h2load's own figure; the request-time row is a summary with the requests done as its count", () => {
    const r = parsed['/']!;
    const reqs = Number(/ (\d+(?:\.\d+)?) req\/s,/.exec(out['/']!)![1]);
    assert.equal(r.metrics.requests_per_sec!.value, reqs);
    assert.equal(r.metrics.requests_per_sec!.direction, 'higher');
    const latency = r.metrics.latency_mean!;
    assert.equal(latency.summary!.n, 400);
    assert.ok(latency.summary!.min! <= latency.summary!.mean && latency.summary!.mean <= latency.summary!.max!);
    assert.ok(latency.summary!.stddev! > 0);
    assert.equal(r.params!.protocol, 'http/1.1');
    assert.equal(r.metrics.errors!.value, 0);
  });

  test('every other answer a 500: errors.status is the 5xx count, error_ratio one half', () => {
    const r = parsed['/half-500']!;
    assert.equal(r.metrics['errors.status']!.value, 200);
    assert.equal(r.metrics['errors.transport']!.value, 0);
    assert.equal(r.metrics.error_ratio!.value, 0.5);
  });
});

describe('h2load adapter on the committed outputs', () => {
  test('units: 1024-based KB/s, ms and us times', () => {
    const [r] = parseFile(adapter, fixture('h2load-1.52-h1-ok.txt'));
    assert.equal(r!.metrics.requests_per_sec!.value, 3671.54);
    assert.equal(r!.metrics.transfer_per_sec!.value, 609.53 * 1024);
    assert.equal(r!.metrics.latency_mean!.summary!.mean, 988e-6);
    assert.equal(r!.metrics.latency_mean!.summary!.stddev, 1.38e-3);
    assert.equal(r!.metrics.latency_max!.value, 9.17e-3);
  });

  test('nothing listening: no request done is a failed row', () => {
    const [r] = parseFile(adapter, fixture('h2load-1.52-refused.txt'));
    assert.equal(r!.status, 'failed');
    assert.match(r!.error!.message, /none of its 10 requests \(10 failed, 10 errored/);
  });

  adapterContract(adapter, 'h2load', [
    { name: 'truncated', text: okText.slice(0, okText.indexOf('requests:')), line: true },
    { name: 'corrupt', text: okText.replace('988us', '988xs'), line: true },
  ]);
});
