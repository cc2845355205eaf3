import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bmfAdapter } from '../../src/adapters/bmf.js';
import { fileInput } from '../../src/adapters/index.js';
import { toBmf } from '../../src/store/bmf.js';
import { gbenchAdapter } from '../../src/adapters/gbench.js';
import { parseBudgets } from '../../src/config/budgets.js';
import { decide } from '../../src/gate/index.js';
import { warningText } from '../../src/report/index.js';
import { DEFAULT_BUDGET_DEFAULTS, EMPTY_BUDGETS, InputError, newResultSet, type BenchmarkResult, type Metric } from '../../src/model/index.js';
import { FIXTURES, parseFile } from './adapter-contract.js';
import { gateRow } from '../support/compiled-harnesses.js';

// Hand-written, following Bencher's documented format: latency in nanoseconds.
const BMF = `{
  "sort/quick": {
    "latency": { "value": 3500.5, "lower_value": 3400, "upper_value": 3600 },
    "throughput": { "value": 1200 }
  },
  "sort/merge": {
    "latency": { "value": 4100 },
    "lines-of-log": { "value": 42 }
  }
}
`;

test('reads Bencher Metric Format into base units and perf-gate metric names', () => {
  const results = bmfAdapter.parse(fileInput('results.bmf.json', BMF));
  assert.deepEqual(
    results.map((r) => r.id),
    ['sort/quick', 'sort/merge'],
  );
  const quick = results[0]!.metrics;
  assert.ok(Math.abs(quick.time!.value! - 3500.5e-9) < 1e-18);
  assert.equal(quick.time!.unit, 's');
  assert.equal(quick.time!.direction, 'lower');
  assert.equal(quick.throughput!.value, 1200);
  assert.equal(quick.throughput!.direction, 'higher');
  assert.equal(results[1]!.metrics['lines-of-log']!.value, 42);
  assert.equal(results[1]!.metrics['lines-of-log']!.directionUnknown, true, 'a measure perf-gate does not know has no direction');
});

test('writes BMF that reads back to the same values', () => {
  const set = newResultSet('2026-11-21T00:00:00Z', [
    { id: 'a', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: [0.001, 0.003] } } },
    { id: 'broken', status: 'failed', error: { message: 'crashed' }, metrics: {} },
  ]);
  const bmf = toBmf(set);
  assert.deepEqual(Object.keys(bmf), ['a']);
  assert.ok(Math.abs(bmf.a!.latency!.value - 2e6) < 1e-6);
  assert.equal(bmf.a!.latency!.lower_value, 1e6);
  const back = bmfAdapter.parse(fileInput('x.json', JSON.stringify(bmf)));
  assert.ok(Math.abs(back[0]!.metrics.time!.value! - 0.002) < 1e-15);
});

test('rejects measures without a finite value, naming file, line and key', () => {
  const text = '{\n  "a": {\n    "latency": { "value": "fast" }\n  }\n}\n';
  assert.throws(
    () => bmfAdapter.parse(fileInput('bad.json', text)),
    (e: unknown) => e instanceof InputError && e.file === 'bad.json' && e.line === 3 && e.key === 'a.latency.value',
  );
  assert.throws(() => bmfAdapter.parse(fileInput('empty.json', '{}')), /no benchmarks/);
  assert.throws(() => bmfAdapter.parse(fileInput('cut.json', BMF.slice(0, 60))), /truncated/);
});

test('detects BMF by shape and declines other JSON', () => {
  assert.deepEqual(bmfAdapter.detect(fileInput('x', BMF)), { match: true });
  for (const other of ['{"results": [{"command": "x"}]}', '{"schema": "perf-gate/results@1"}', '{"benchmarks": [{"name": "x"}]}', 'not json']) {
    assert.equal(bmfAdapter.detect(fileInput('x', other)).match, false, other);
  }
});

const readBack = (results: BenchmarkResult[]): BenchmarkResult[] =>
  bmfAdapter.parse(fileInput('back.json', JSON.stringify(toBmf(newResultSet('2026-11-25T00:00:00Z', results)))));

test('ResultSet → BMF → ResultSet keeps the unit and direction of every metric perf-gate writes', () => {
  const metric = (unit: string, direction: 'lower' | 'higher', value: number, extra: Partial<Metric> = {}): Metric => ({ unit, direction, value, ...extra });
  const metrics: Record<string, Metric> = {
    time: metric('s', 'lower', 0.25),
    throughput: metric('1/s', 'higher', 1200),
    bytes_per_second: metric('B/s', 'higher', 5e8),
    items_per_second: metric('1/s', 'higher', 3e6),
    alloc_bytes: metric('B', 'lower', 4096, { exact: true }),
    allocs: metric('count', 'lower', 3, { exact: true }),
    latency_p99: metric('s', 'lower', 0.003),
    'gc.alloc.rate': metric('B/s', 'lower', 1e6),
    'MS/s': metric('MS/s', 'higher', 9001),
    hits: metric('count', 'lower', 7),
    'widgets/op': metric('widgets/op', 'lower', 12),
    score: metric('count', 'higher', 88),
    requests_per_sec: metric('1/s', 'lower', 10), // a config override: the written name must say so
  };
  const back = readBack([{ id: 'b', status: 'ok', metrics }])[0]!.metrics;
  assert.deepEqual(Object.keys(back).sort(), Object.keys(metrics).sort());
  for (const [name, m] of Object.entries(metrics)) {
    const got = back[name]!;
    assert.deepEqual([got.unit, got.direction, got.value, got.directionUnknown], [m.unit, m.direction, m.value, undefined], name);
  }
  const slugs = Object.keys(toBmf(newResultSet('2026-11-25T00:00:00Z', [{ id: 'b', status: 'ok', metrics }])).b!);
  assert.ok(slugs.includes('latency') && slugs.includes('bytes_per_second') && slugs.includes('MS/s'), 'well-known names travel as they are');
  assert.ok(slugs.includes('score (count, higher is better)') && slugs.includes('requests_per_sec (1/s, lower is better)'), slugs.join(', '));
});

test('a Google Benchmark baseline read back from BMF keeps bytes/items per second higher-is-better: 2x faster is improved', () => {
  const base = parseFile(gbenchAdapter, `${FIXTURES}gbench/repetitions-nan-error.json`).filter((b) => b.status === 'ok');
  const baseline = readBack(base).find((b) => b.id === 'BM_Copy/4096')!;
  for (const name of ['bytes_per_second', 'items_per_second']) {
    const original = base.find((b) => b.id === 'BM_Copy/4096')!.metrics[name]!;
    assert.equal(baseline.metrics[name]!.direction, 'higher', name);
    assert.equal(baseline.metrics[name]!.unit, original.unit, name);
    const twiceAsFast: BenchmarkResult = {
      id: 'BM_Copy/4096',
      status: 'ok',
      metrics: { [name]: { ...original, samples: original.samples!.map((v) => v * 2) } },
    };
    assert.equal(gateRow(baseline, twiceAsFast, name).status, 'improved', name);
  }
});

test('a measure with no known direction is flagged by the gate until a budget sets one', () => {
  const bmf = '{"parse": {"lines-of-log": {"value": 40}}}';
  const base = bmfAdapter.parse(fileInput('base.json', bmf));
  const cur = bmfAdapter.parse(fileInput('cur.json', bmf.replace('40', '41')));
  const report = decide(newResultSet('2026-11-25T00:00:00Z', base), newResultSet('2026-11-25T00:05:00Z', cur), EMPTY_BUDGETS);
  const warning = report.warnings.find((w) => w.code === 'unknown-direction');
  assert.ok(warning, JSON.stringify(report.warnings));
  assert.equal(
    warningText(warning),
    'parse: the input does not say which way is better for lines-of-log, so they are compared as lower-is-better and the verdict may be backwards. Set `direction: higher` or `direction: lower` for them in the budgets.',
  );
  const parsed = parseBudgets('version: 1\nbenchmarks:\n  "parse":\n    lines-of-log: { direction: higher }\n', 'budgets/t.yml');
  const told = decide(newResultSet('2026-11-25T00:00:00Z', base), newResultSet('2026-11-25T00:05:00Z', cur), {
    defaults: { ...DEFAULT_BUDGET_DEFAULTS, ...parsed.defaults },
    rules: parsed.rules,
    files: ['budgets/t.yml'],
  });
  assert.equal(
    told.warnings.find((w) => w.code === 'unknown-direction'),
    undefined,
  );
  assert.equal(told.rows[0]!.direction, 'higher');
});
