import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseBencherPerf } from '../../src/adapters/bencher-perf.js';
import { InputError } from '../../src/model/index.js';

const file = 'perf-export.json';
const text = readFileSync(new URL('../fixtures/bencher-perf/perf-export.json', import.meta.url), 'utf8');

describe("Bencher's perf export (history import)", () => {
  test('one run per report with a git hash, oldest first; iterations are samples; units in base units', () => {
    const { runs, skipped } = parseBencherPerf(text, file, { testbed: 'ci-runner' });
    assert.deepEqual(
      runs.map((r) => [r.commit.slice(0, 4), r.created]),
      [
        ['1111', '2025-11-10T09:00:00.000Z'],
        ['2222', '2025-11-11T09:00:00.000Z'],
      ],
    );
    const [first, second] = runs;
    assert.equal(first!.set.commit, '1'.repeat(40));
    assert.deepEqual(
      first!.set.benchmarks.map((b) => b.id),
      ['bench_parse', 'bench_render'],
    );
    const parse = first!.set.benchmarks[0]!.metrics['time']!;
    assert.equal(parse.unit, 's');
    assert.equal(parse.direction, 'lower');
    assert.ok(Math.abs(parse.value! - 254e-9) < 1e-18, String(parse.value));
    // Report 2 ran two iterations: two samples, in iteration order.
    const twice = second!.set.benchmarks[0]!.metrics['time']!;
    assert.deepEqual(
      twice.samples?.map((v) => Math.round(v * 1e9)),
      [262, 258],
    );
    assert.deepEqual(second!.set.benchmarks[1]!.metrics['throughput'], {
      unit: '1/s',
      direction: 'higher',
      sourceUnit: 'operations / second (ops/s)',
      value: 1799.25,
    });
    // The custom measure's direction is not in the export, and report 3 has no git hash: both left out, and said.
    assert.deepEqual(skipped, [
      'measure cpu-temp: its direction is not in the export (units "degrees Celsius (°C)")',
      '1 point(s) without a git hash: perf-gate keys runs by commit',
    ]);
    assert.ok(runs.every((r) => r.set.benchmarks.every((b) => !('cpu_temp' in b.metrics))));
  });

  test('two testbeds in one export are an error until one is chosen, by slug or name', () => {
    assert.throws(
      () => parseBencherPerf(text, file),
      (e: unknown) => e instanceof InputError && /2 testbeds \(ci-runner, laptop\); choose one with --bencher-testbed/.test(e.message) && e.file === file,
    );
    const laptop = parseBencherPerf(text, file, { testbed: 'laptop', branch: 'main' });
    assert.deepEqual(
      laptop.runs.map((r) => r.set.benchmarks.map((b) => b.id)),
      [['bench_parse']],
    );
    assert.throws(() => parseBencherPerf(text, file, { testbed: 'ci-runner', branch: 'develop' }), /no result line is on branch "develop"/);
  });

  test('unusable input names the file, the line and what was expected', () => {
    const cases: [string, RegExp, number | undefined][] = [
      [text.slice(0, 900), /ends early \(truncated\?\)/, undefined],
      [text.replace('"value": 254.0', '"value": "fast"'), /"metric": \{ "value": a finite number \}/, 61],
      [text.replace('"slug": "latency"', '"slog": "latency"'), /"measure": \{ "slug"/, undefined],
      ['{"project": {}, "rows": []}', /"results"/, 1],
      ['', /empty/, undefined],
    ];
    for (const [input, message, line] of cases) {
      assert.throws(
        () => parseBencherPerf(input, file, { testbed: 'ci-runner' }),
        (e: unknown) => {
          assert.ok(e instanceof InputError, String(e));
          assert.equal(e.file, file);
          assert.match(e.message, message);
          if (line !== undefined) assert.equal(e.line, line, e.message);
          return true;
        },
      );
    }
  });
});
