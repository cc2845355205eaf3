import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { vegetaAdapter as adapter } from '../../src/adapters/vegeta.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { startLoadServer, type LoadServer } from '../support/load-server.js';
import { runTool, runToolAsync } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { adapterContract, byId, FIXTURES, parseFile, parseText } from './adapter-contract.js';
import { requireTool } from '../support/tools.js';

const fixture = (name: string): string => join(FIXTURES, 'vegeta', name);
const okText = readFileSync(fixture('vegeta-12.13-ok.json'), 'utf8');

/** vegeta's text report's figures: `Requests [total, rate, throughput] 400, 200.52, 200.41` and the latency row in seconds. */
function textReport(text: string): { total: number; rate: number; throughput: number; latencies: number[]; success: number; codes: Record<string, number> } {
  const row = (label: string): string => new RegExp(`^${label}\\s+\\[[^\\]]*\\]\\s+(.*)$`, 'm').exec(text)![1]!.trim();
  const [total, rate, throughput] = row('Requests').split(', ').map(Number) as [number, number, number];
  const seconds = (t: string): number => {
    const m = /^([\d.]+)(µs|ms|s|ns)$/.exec(t.trim())!;
    return Number(m[1]) * { ns: 1e-9, µs: 1e-6, ms: 1e-3, s: 1 }[m[2] as 'ns' | 'µs' | 'ms' | 's'];
  };
  const latencies = row('Latencies').split(', ').map(seconds);
  const success = Number(row('Success').replace('%', '')) / 100;
  const codes = Object.fromEntries(
    row('Status Codes')
      .split(/\s+/)
      .map((pair) => pair.split(':').map(Number) as [number, number])
      .map(([code, n]) => [String(code), n]),
  );
  return { total, rate, throughput, latencies, success, codes };
}

describe('vegeta adapter on real vegeta attacks against a loopback server', () => {
  const dir = tempDir();
  let server: LoadServer;
  const parsed: Record<string, BenchmarkResult> = {};
  const text: Record<string, string> = {};

  before(async () => {
    const vegeta = requireTool('vegeta');
    server = await startLoadServer();
    for (const path of ['/', '/half-500']) {
      const name = path === '/' ? 'ok' : 'half-500';
      writeFileSync(join(dir, `${name}.targets`), `GET ${server.base}${path}\n`);
      // Asynchronously: this process is the server the attack loads.
      await runToolAsync(vegeta, ['attack', `-targets=${join(dir, `${name}.targets`)}`, '-duration=1s', '-rate=200', `-output=${join(dir, `${name}.bin`)}`], {
        timeoutMs: 20_000,
      });
      writeFileSync(join(dir, `${name}.json`), runTool(vegeta, ['report', '-type=json', join(dir, `${name}.bin`)]).stdout);
      text[name] = runTool(vegeta, ['report', join(dir, `${name}.bin`)]).stdout;
      parsed[name] = parseFile(adapter, join(dir, `${name}.json`))[0]!;
    }
  });
  after(() => server?.close());

  test('auto-detection picks vegeta', () => {
    assert.equal(chooseAdapter(fileInput(join(dir, 'ok.json'), readFileSync(join(dir, 'ok.json'), 'utf8'))).name, 'vegeta');
  });

  test("the rates, latencies and status codes are vegeta's own text report's", () => {
    const r = parsed.ok!;
    const report = textReport(text.ok!);
    assert.equal(r.id, 'ok');
    // The text report rounds rates to two decimals and latencies to about four digits.
    assert.ok(Math.abs(r.metrics.requests_per_sec!.value! - report.rate) < 0.006, `${r.metrics.requests_per_sec!.value} vs ${report.rate}`);
    assert.ok(Math.abs(r.metrics.success_per_sec!.value! - report.throughput) < 0.006);
    const [min, mean, p50, p90, p95, p99, max] = report.latencies as [number, number, number, number, number, number, number];
    void min;
    for (const [metric, printed] of [
      ['latency_mean', mean],
      ['latency_p50', p50],
      ['latency_p90', p90],
      ['latency_p95', p95],
      ['latency_p99', p99],
      ['latency_max', max],
    ] as const) {
      const value = r.metrics[metric]!.value!;
      assert.ok(Math.abs(value - printed) / printed < 0.001, `${metric}: ${value} vs printed ${printed}`);
      assert.equal(r.metrics[metric]!.unit, 's');
      assert.equal(r.metrics[metric]!.direction, 'lower');
    }
    assert.equal(report.success, 1);
    assert.deepEqual(report.codes, { '200': report.total });
    assert.equal(r.metrics.errors!.value, 0);
    assert.equal(r.metrics.error_ratio!.value, 0);
    assert.equal(r.metrics.requests_per_sec!.direction, 'higher');
  });

  test('a server answering 500 to every other request: errors.status and error_ratio show it, success_per_sec halves', () => {
    const r = parsed['half-500']!;
    const report = textReport(text['half-500']!);
    assert.equal(r.metrics['errors.status']!.value, report.codes['500']);
    assert.equal(r.metrics.errors!.value, report.codes['500']);
    assert.ok(Math.abs(r.metrics.error_ratio!.value! - (1 - report.success)) < 1e-9);
    assert.ok(Math.abs(r.metrics.error_ratio!.value! - 0.5) < 0.01, `error ratio ${r.metrics.error_ratio!.value}`);
    assert.equal(r.metrics.errors!.exact, true);
    assert.ok(r.metrics.success_per_sec!.value! < 0.55 * r.metrics.requests_per_sec!.value!);
  });
});

describe('vegeta adapter on the committed reports', () => {
  test('nothing listening: every request has status code 0, a failed row with the first error', () => {
    const [r] = parseFile(adapter, fixture('vegeta-12.13-refused.json'));
    assert.equal(r!.status, 'failed');
    assert.match(r!.error!.message, /no answer to any of its 20 requests: .*connection refused/);
  });

  test('several reports in one file are runs of one target: samples in order', () => {
    const [r] = parseFile(adapter, fixture('vegeta-12.13-three-reports.jsonl'));
    const lines = readFileSync(fixture('vegeta-12.13-three-reports.jsonl'), 'utf8').trim().split('\n');
    assert.deepEqual(
      r!.metrics.requests_per_sec!.samples,
      lines.map((l) => (JSON.parse(l) as { rate: number }).rate),
    );
    assert.equal(r!.metrics.latency_p99!.samples!.length, 3);
  });

  test('vegeta 12.8.4 writes the same report; a pretty-printed report reads the same', () => {
    const old = parseFile(adapter, fixture('vegeta-12.8.4-ok.json'))[0]!;
    assert.equal(old.metrics.latency_p50!.value, 717710e-9);
    const pretty = JSON.stringify(JSON.parse(okText), null, 2);
    assert.deepEqual(parseText(adapter, pretty, 'ok.json'), parseText(adapter, okText, 'ok.json'));
  });

  test('the suite names the benchmark when perf-gate.yml runs it', () => {
    const [r] = adapter.parse({ ...fileInput('/out/run.output', okText), name: 'api' });
    assert.equal(r!.id, 'api');
    assert.equal(byId(parseFile(adapter, fixture('vegeta-12.13-ok.json')), 'vegeta-12.13-ok').status, 'ok');
  });

  adapterContract(adapter, 'vegeta', [
    { name: 'truncated', text: okText.slice(0, 200), line: true },
    { name: 'corrupt', text: okText.replace('"requests":400', '"requests":"many"'), line: true },
    { name: 'negative latency', text: okText.replace('"50th":806390', '"50th":-1'), line: true },
    { name: 'not a report', text: '[1, 2, 3]' },
  ]);
});
