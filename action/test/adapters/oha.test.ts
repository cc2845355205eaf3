import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ohaAdapter as adapter } from '../../src/adapters/oha.js';
import { adapterContract, FIXTURES, parseFile } from './adapter-contract.js';

/** oha takes 15 minutes to build here, so setup does not install it: these are its committed real outputs (fixtures/oha/README.md). */
const fixture = (name: string): string => join(FIXTURES, 'oha', name);
const okText = readFileSync(fixture('oha-1.16-ok.json'), 'utf8');

describe('oha adapter on real oha 1.16 outputs', () => {
  test("rates and latencies are oha's summary and percentiles, in seconds", () => {
    const [r] = parseFile(adapter, fixture('oha-1.16-ok.json'));
    const data = JSON.parse(okText) as { summary: Record<string, number>; latencyPercentiles: Record<string, number> };
    assert.equal(r!.id, 'oha-1.16-ok');
    assert.equal(r!.metrics.requests_per_sec!.value, data.summary.requestsPerSec);
    assert.equal(r!.metrics.latency_mean!.value, data.summary.average);
    assert.equal(r!.metrics.latency_p99!.value, data.latencyPercentiles.p99);
    assert.equal(r!.metrics['latency_p99.9']!.value, data.latencyPercentiles['p99.9']);
    assert.equal(r!.metrics['latency_p99.9']!.direction, 'lower');
    assert.equal(r!.metrics.errors!.value, 0);
  });

  test("503s are errors although oha's successRate says 1.0", () => {
    const data = JSON.parse(readFileSync(fixture('oha-1.16-half-503.json'), 'utf8')) as { summary: { successRate: number } };
    assert.equal(data.summary.successRate, 1);
    const [r] = parseFile(adapter, fixture('oha-1.16-half-503.json'));
    assert.equal(r!.metrics['errors.status']!.value, 200);
    assert.equal(r!.metrics.error_ratio!.value, 0.5);
  });

  test('nothing listening: only the error distribution, a failed row', () => {
    const [r] = parseFile(adapter, fixture('oha-1.16-refused.json'));
    assert.equal(r!.status, 'failed');
    assert.match(r!.error!.message, /no answer to any of its 20 requests: Connection refused/);
  });

  adapterContract(adapter, 'oha', [
    { name: 'truncated', text: okText.slice(0, 300), line: true },
    { name: 'corrupt', text: okText.replace('"average": 0.0006121525325000002', '"average": "fast"'), line: true },
    { name: 'bad distribution', text: okText.replace('"200": 400', '"200": -4'), line: true },
  ]);
});
