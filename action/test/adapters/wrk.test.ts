import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { wrkAdapter as adapter } from '../../src/adapters/wrk.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import { EMPTY_BUDGETS, newResultSet, type BenchmarkResult } from '../../src/model/index.js';
import { decide } from '../../src/gate/index.js';
import { runToolAsync } from '../support/system-tools.js';
import { adapterContract, FIXTURES, parseText } from './adapter-contract.js';
import { requireTool } from '../support/tools.js';

requireTool('wrk');

const latencyText = readFileSync(join(FIXTURES, 'wrk/latency.txt'), 'utf8');

/** A loopback server: `/` answers at once, `/slow` after 5 ms, `/missing` is 404, `/stall` hangs 1.5 s on every 4th request. */
function startServer(): Promise<Server> {
  let stallCount = 0;
  const server = createServer((req, res) => {
    const reply = (status: number): void => {
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end('hello from perf-gate\n');
    };
    if (req.url === '/slow') setTimeout(() => reply(200), 5);
    else if (req.url === '/missing') reply(404);
    else if (req.url === '/stall') {
      if (++stallCount % 4 === 0) setTimeout(() => reply(200), 1500);
      else reply(200);
    } else reply(200);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function wrk(url: string, extra: string[] = ['-d1s']): Promise<string> {
  const run = await runToolAsync('wrk', ['-t1', '-c4', '--latency', ...extra, url], { timeoutMs: 20_000 });
  return run.stdout;
}

/** wrk's "Requests/sec:" figure of one run's output. */
function rateOf(text: string): number {
  return parseText(adapter, text, 'wrk.txt')[0]!.metrics.requests_per_sec!.value!;
}

describe('wrk adapter on real wrk runs against a loopback server', () => {
  let server: Server;
  let base: string;
  const out: Record<string, string> = {};
  const parsed: Record<string, BenchmarkResult> = {};

  before(async () => {
    server = await startServer();
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The fast and the slow endpoint, three one-second runs each, interleaved; each keeps its run with the most
    // requests per second. A stall of this 2-core VM only ever lowers a run's rate (it once cut the fast
    // endpoint to 47/s beside the slow one's 131/s), so the least disturbed run is the one that shows the server.
    for (const path of ['/', '/slow']) out[path] = '';
    for (let round = 0; round < 3; round++) {
      for (const path of ['/', '/slow']) {
        const text = await wrk(`${base}${path}`);
        if (out[path] === '' || rateOf(text) > rateOf(out[path]!)) out[path] = text;
      }
    }
    out['/missing'] = await wrk(`${base}/missing`);
    // wrk checks for timed-out requests every 2 s, so this run lasts 3 s.
    out['/stall'] = await wrk(`${base}/stall`, ['-d3s', '--timeout', '1s']);
    for (const [path, text] of Object.entries(out)) parsed[path] = parseText(adapter, text, `wrk${path.replace('/', '-')}.txt`)[0]!;
  });
  after(() => {
    server?.closeAllConnections();
    server?.close();
  });

  test('auto-detection picks wrk', () => {
    assert.equal(chooseAdapter(fileInput('wrk.txt', out['/']!)).name, 'wrk');
  });

  test('requests/sec is higher-is-better and higher for the faster endpoint', () => {
    const fast = parsed['/']!.metrics.requests_per_sec!;
    const slow = parsed['/slow']!.metrics.requests_per_sec!;
    assert.equal(fast.unit, '1/s');
    assert.equal(fast.direction, 'higher');
    assert.ok(fast.value! > slow.value!, `fast ${fast.value}/s vs slow ${slow.value}/s`);
    // 4 connections each waiting ≥ 5 ms can do at most ~800 requests per second. No lower
    // bound beyond "some": a throttled 2-core VM running another test file beside this one
    // has served as few as 12 per second.
    assert.ok(slow.value! > 0 && slow.value! < 850, `slow endpoint ${slow.value}/s`);
    assert.equal(parsed['/']!.id, `${base}/`);
    assert.deepEqual(parsed['/']!.params, { duration: '1s', threads: '1', connections: '4' });
  });

  test('latency percentiles are seconds, ordered, and at least the 5 ms delay', () => {
    const m = parsed['/slow']!.metrics;
    const ps = [m.latency_p50!, m.latency_p75!, m.latency_p90!, m.latency_p99!];
    for (const p of ps) {
      assert.equal(p.unit, 's');
      assert.equal(p.direction, 'lower');
    }
    const values = ps.map((p) => p.value!);
    assert.deepEqual(
      [...values].sort((a, b) => a - b),
      values,
    );
    assert.ok(values[0]! >= 0.004 && values[0]! < 0.5, `p50 ${values[0]} s`);
  });

  test('transfer/sec is bytes per second, higher is better', () => {
    const t = parsed['/']!.metrics.transfer_per_sec!;
    assert.equal(t.unit, 'B/s');
    assert.equal(t.direction, 'higher');
    // Each response is ~100-200 bytes with headers.
    const perRequest = t.value! / parsed['/']!.metrics.requests_per_sec!.value!;
    assert.ok(perRequest > 50 && perRequest < 1000, `${perRequest} bytes per request`);
  });

  test('a clean run has every error count present, exact, and zero', () => {
    for (const key of ['errors', 'errors.connect', 'errors.read', 'errors.write', 'errors.timeout', 'errors.status']) {
      const e = parsed['/']!.metrics[key]!;
      assert.equal(e.value, 0, key);
      assert.equal(e.exact, true, key);
      assert.equal(e.direction, 'lower', key);
      assert.equal(e.unit, 'count', key);
    }
  });

  test('404 responses become errors.status and errors, never ignored', () => {
    const m = parsed['/missing']!.metrics;
    assert.match(out['/missing']!, /Non-2xx or 3xx responses: \d+/);
    assert.ok(m['errors.status']!.value! > 10);
    assert.equal(m.errors!.value, m['errors.status']!.value);
  });

  test('requests that time out become errors.timeout', () => {
    assert.match(out['/stall']!, /Socket errors: .*timeout [1-9]/);
    assert.ok(parsed['/stall']!.metrics['errors.timeout']!.value! >= 1);
    assert.ok(parsed['/stall']!.metrics.errors!.value! >= 1);
  });

  test('through the gate, requests/sec that rose is improved and one that fell is regressed', () => {
    // The same URL measured slow (baseline) then fast (current): the server got faster.
    const as = (r: BenchmarkResult): BenchmarkResult => ({ ...r, id: 'server' });
    const slow = newResultSet('2026-11-21T00:00:00Z', [as(parsed['/slow']!)]);
    const fast = newResultSet('2026-11-21T00:00:00Z', [as(parsed['/']!)]);
    const status = (base: typeof slow, cur: typeof slow, metric: string): string =>
      decide(base, cur, EMPTY_BUDGETS).rows.find((r) => r.metric === metric)!.status;
    assert.equal(status(slow, fast, 'requests_per_sec'), 'improved');
    assert.equal(status(fast, slow, 'requests_per_sec'), 'regressed');
    assert.equal(status(slow, fast, 'latency_p50'), 'improved');
  });

  test('several runs of one URL in one file become samples in order', () => {
    const [r] = parseText(adapter, out['/']! + out['/']!, 'twice.txt');
    const rps = parsed['/']!.metrics.requests_per_sec!.value!;
    assert.deepEqual(r!.metrics.requests_per_sec!.samples, [rps, rps]);
    assert.deepEqual(r!.metrics.errors!.samples, [0, 0]);
  });
});

describe('wrk adapter on the committed captures', () => {
  test('units: us/ms times, 1024-based KB/MB transfer', () => {
    const [r] = parseText(adapter, latencyText, 'latency.txt');
    assert.ok(Math.abs(r!.metrics.latency_p50!.value! - 0.00278) < 1e-12);
    assert.ok(Math.abs(r!.metrics.transfer_per_sec!.value! - 247.98 * 1024) < 1e-6);
    const big = readFileSync(join(FIXTURES, 'wrk/large-transfer-mb.txt'), 'utf8');
    assert.ok(Math.abs(parseText(adapter, big, 'big.txt')[0]!.metrics.transfer_per_sec!.value! - 26.66 * 1024 ** 2) < 1e-3);
  });

  test('without --latency there are no percentiles, but errors still count', () => {
    const [r] = parseText(adapter, readFileSync(join(FIXTURES, 'wrk/non2xx-no-latency.txt'), 'utf8'), 'n.txt');
    assert.equal(r!.metrics.latency_p50, undefined);
    assert.equal(r!.metrics['errors.status']!.value, 3214);
  });

  test('connection refused is a failed benchmark', () => {
    const [r] = parseText(adapter, readFileSync(join(FIXTURES, 'wrk/connect-refused.txt'), 'utf8'), 'refused.txt');
    assert.equal(r!.status, 'failed');
    assert.match(r!.error!.message, /Connection refused/);
  });

  adapterContract(adapter, 'wrk', [
    { name: 'truncated', text: latencyText.slice(0, latencyText.indexOf('Requests/sec')), line: true },
    { name: 'truncated mid-line', text: latencyText.slice(0, latencyText.indexOf('Transfer/sec') + 20), line: true },
    { name: 'corrupt', text: latencyText.replace('2.78ms', '2.78xs'), line: true },
    { name: 'not wrk', text: 'hello\nworld\n' },
  ]);
});
