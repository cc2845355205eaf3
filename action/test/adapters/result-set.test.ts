import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileInput } from '../../src/adapters/index.js';
import { resultSetAdapter, validateResultSet } from '../../src/adapters/result-set.js';
import { InputError } from '../../src/model/index.js';

/** The ResultSet example of docs/design.md, with its elisions filled in. */
const DESIGN_EXAMPLE = {
  schema: 'perf-gate/results@1',
  commit: '9fceb02d0ae598e95dc970b74767f19372d61af8',
  ref: 'refs/heads/main',
  created: '2026-11-21T12:00:00Z',
  testbed: { id: 'a1b2c3', cpu: 'AMD EPYC', cores: 20, kernel: '6.1.0', governor: 'performance', turbo: false, smt: true, runner: 'bm-01' },
  benchmarks: [
    {
      id: 'scan/prtip -p 1-1000 127.0.0.1',
      suite: 'scan',
      params: { ports: '1000' },
      status: 'ok',
      metrics: {
        time: {
          unit: 's',
          direction: 'lower',
          samples: [0.00441, 0.00452],
          summary: { n: 20, mean: 0.00446, stddev: 0.00039, median: 0.00444, min: 0.00365, max: 0.00508 },
        },
      },
    },
  ],
};

test('the docs/design.md ResultSet example is valid', () => {
  const set = validateResultSet(structuredClone(DESIGN_EXAMPLE), 'r.json');
  assert.equal(set.benchmarks[0]!.metrics.time!.samples!.length, 2);
});

test('invalid ResultSets name the key and the benchmark line', () => {
  const cases: [(d: typeof DESIGN_EXAMPLE) => void, RegExp][] = [
    [(d) => void ((d.benchmarks[0]!.metrics.time as { direction: string }).direction = 'down'), /benchmarks\.0\.metrics\.time\.direction/],
    [(d) => void ((d.benchmarks[0] as { status: string }).status = 'crashed'), /benchmarks\.0\.status/],
    [(d) => void ((d as { schema: string }).schema = 'perf-gate/results@9'), /schema/],
    [(d) => void ((d.benchmarks[0]!.metrics.time as { samples: unknown[] }).samples = []), /samples/],
    [(d) => void ((d.benchmarks[0]!.metrics.time as Record<string, unknown>).extra = 1), /"extra"/],
    [(d) => void ((d.benchmarks[0]!.metrics as Record<string, unknown>).time = { unit: 's', direction: 'lower' }), /must match a schema in anyOf|required/],
  ];
  for (const [mutate, pattern] of cases) {
    const data = structuredClone(DESIGN_EXAMPLE);
    mutate(data);
    const text = JSON.stringify(data, null, 2);
    assert.throws(
      () => resultSetAdapter.parse(fileInput('baseline.json', text)),
      (e: unknown) => e instanceof InputError && e.file === 'baseline.json' && pattern.test(e.message),
      String(pattern),
    );
  }
  const data = structuredClone(DESIGN_EXAMPLE);
  (data.benchmarks[0]! as { status: string }).status = 'crashed';
  const text = JSON.stringify(data, null, 2);
  try {
    resultSetAdapter.parse(fileInput('baseline.json', text));
  } catch (e) {
    assert.ok(e instanceof InputError);
    assert.equal(e.line, text.split('\n').findIndex((l) => l.includes('"status": "crashed"')) + 1);
  }
});

test('detects ResultSets and declines other JSON', () => {
  assert.deepEqual(resultSetAdapter.detect(fileInput('r', JSON.stringify(DESIGN_EXAMPLE))), { match: true });
  assert.equal(resultSetAdapter.detect(fileInput('r', '{"results": []}')).match, false);
});
