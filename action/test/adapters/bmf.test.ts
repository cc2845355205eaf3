import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bmfAdapter } from '../../src/adapters/bmf.js';
import { fileInput } from '../../src/adapters/index.js';
import { toBmf } from '../../src/store/bmf.js';
import { InputError, newResultSet } from '../../src/model/index.js';

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
  assert.deepEqual(results.map((r) => r.id), ['sort/quick', 'sort/merge']);
  const quick = results[0]!.metrics;
  assert.ok(Math.abs(quick.time!.value! - 3500.5e-9) < 1e-18);
  assert.equal(quick.time!.unit, 's');
  assert.equal(quick.time!.direction, 'lower');
  assert.equal(quick.throughput!.value, 1200);
  assert.equal(quick.throughput!.direction, 'higher');
  assert.equal(results[1]!.metrics['lines-of-log']!.value, 42);
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
