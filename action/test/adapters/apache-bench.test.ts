import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { abAdapter as adapter } from '../../src/adapters/apache-bench.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { startLoadServer, type LoadServer } from '../support/load-server.js';
import { runToolAsync } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { adapterContract, FIXTURES, parseFile, parseText } from './adapter-contract.js';
import { requireTool } from '../support/tools.js';

const fixture = (name: string): string => join(FIXTURES, 'ab', name);
const okText = readFileSync(fixture('ab-2.3-ok.txt'), 'utf8');
const csvText = readFileSync(fixture('ab-2.3-percentiles.csv'), 'utf8');

describe('ab adapter on real ApacheBench runs against a loopback server', () => {
  const dir = tempDir();
  let server: LoadServer;
  const out: Record<string, string> = {};
  const parsed: Record<string, BenchmarkResult> = {};

  before(async () => {
    const ab = requireTool('ab');
    server = await startLoadServer();
    for (const path of ['/', '/half-500']) {
      const csv = join(dir, `${path === '/' ? 'ok' : 'half'}.csv`);
      // Bounded: 400 requests, 4 at a time, 5 s timeout; asynchronously, since this process serves them.
      out[path] = (await runToolAsync(ab, ['-n', '400', '-c', '4', '-s', '5', '-e', csv, `${server.base}${path}`], { timeoutMs: 30_000 })).stdout;
      parsed[path] = parseText(adapter, out[path]!, 'ab.txt')[0]!;
    }
    parsed.csv = parseFile(adapter, join(dir, 'ok.csv'))[0]!;
  });
  after(() => server?.close());

  test('auto-detection picks ab for the report and for its -e CSV', () => {
    assert.equal(chooseAdapter(fileInput('ab.txt', out['/']!)).name, 'ab');
    assert.equal(chooseAdapter(fileInput('ok.csv', readFileSync(join(dir, 'ok.csv'), 'utf8'))).name, 'ab');
  });

  test("the id is the URL; requests per second and the mean time are ab's own figures", () => {
    const r = parsed['/']!;
    assert.equal(r.id, `${server.base}/`);
    assert.equal(r.params!.concurrency, '4');
    assert.equal(r.metrics.requests_per_sec!.value, Number(/^Requests per second:\s+(\S+)/m.exec(out['/']!)![1]));
    // ms to s decimally, as the adapter converts (2.672 / 1000 in binary is 0.0026720000000000003).
    assert.equal(r.metrics.latency_mean!.value, Number(`${/^Time per request:\s+(\S+) \[ms\] \(mean\)$/m.exec(out['/']!)![1]}e-3`));
    assert.equal(r.metrics.errors!.value, 0);
    assert.equal(r.metrics.length_mismatches!.value, 0);
  });

  test("the CSV's percentiles are the report's table, to ab's whole milliseconds", () => {
    for (const p of [50, 90, 99]) {
      const table = parsed['/']!.metrics[`latency_p${p}`]!.value!;
      const csv = parsed.csv!.metrics[`latency_p${p}`]!.value!;
      // The table rounds to whole ms; ab's rounding differs by at most one.
      assert.ok(Math.abs(table - csv) <= 0.001 + 1e-12, `p${p}: table ${table} s, csv ${csv} s`);
    }
    assert.equal(parsed.csv!.metrics.errors, undefined);
  });

  test('every other answer a 500: Non-2xx responses are errors.status', () => {
    const r = parsed['/half-500']!;
    assert.equal(r.metrics['errors.status']!.value, 200);
    assert.equal(r.metrics.error_ratio!.value, 0.5);
  });
});

describe('ab adapter on the committed outputs', () => {
  test('the report: Kbytes are 1024 bytes, the table whole milliseconds, 100 % the longest', () => {
    const [r] = parseFile(adapter, fixture('ab-2.3-ok.txt'));
    assert.equal(r!.metrics.transfer_per_sec!.value, 186.66 * 1024);
    assert.equal(r!.metrics.latency_p66!.value, 0.003);
    assert.equal(r!.metrics.latency_max!.value, 0.012);
  });

  test('Length failures are length_mismatches, outside errors; connect failures are errors', () => {
    const text = okText.replace('Failed requests:        0', 'Failed requests:        7\n   (Connect: 2, Receive: 0, Length: 5, Exceptions: 0)');
    const [r] = parseText(adapter, text, 'ab.txt');
    assert.equal(r!.metrics.length_mismatches!.value, 5);
    assert.equal(r!.metrics['errors.connect']!.value, 2);
    assert.equal(r!.metrics.errors!.value, 2);
  });

  test('nothing listening: ab stops on the socket error, a failed row', () => {
    const [r] = parseFile(adapter, fixture('ab-2.3-refused.txt'));
    assert.equal(r!.status, 'failed');
    assert.match(r!.error!.message, /Connection refused \(111\)/);
  });

  adapterContract(adapter, 'ab', [
    { name: 'truncated', text: okText.slice(0, okText.indexOf('Requests per second')) },
    { name: 'corrupt', text: okText.replace('1346.05 [#/sec]', 'fast [#/sec]'), line: true },
    { name: 'truncated csv', text: csvText.slice(0, csvText.indexOf('\n90,')), line: false },
    { name: 'corrupt csv', text: csvText.replace('50,', '50;'), line: true },
  ]);
});
