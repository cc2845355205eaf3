import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parsePerfGateConfig } from '../../src/config/perf-gate-config.js';
import { applyDerived, compileDerived, inferUnit } from '../../src/derived/derived-metrics.js';
import { parseExpression } from '../../src/derived/expression.js';
import { InputError, type BenchmarkResult } from '../../src/model/index.js';

function config(derived: string): ReturnType<typeof parsePerfGateConfig> {
  return parsePerfGateConfig(`version: 1\nsuites:\n  - name: scan\n    run: echo {output}\nderived:\n${derived}`, 'perf-gate.yml', '/tmp');
}

describe('compiling the derived: section', () => {
  test('a parse error is an InputError naming the file, line, key and column', () => {
    const cfg = config('  ports_per_sec: 10000 / time\n  broken:\n    expr: "requests / (time"\n    unit: 1/s\n');
    assert.throws(
      () => compileDerived(cfg.derived),
      (e: unknown) =>
        e instanceof InputError &&
        e.file === 'perf-gate.yml' &&
        e.line === 7 &&
        e.key === 'derived.broken' &&
        /expected "\)" to close the "\(" at column 12 \(column 17 of "requests \/ \(time"\)/.test(e.message),
    );
  });
  test('an expression without metrics, or reading itself, is refused', () => {
    assert.throws(() => compileDerived(config('  ten: 5 + 5\n').derived), /perf-gate.yml:6: derived.ten: "5 \+ 5" reads no metric/);
    assert.throws(() => compileDerived(config('  time: time * 2\n').derived), /reads the metric it defines/);
  });
});

const hyperfineLike = (id: string, times: number[]): BenchmarkResult => ({
  id,
  status: 'ok',
  metrics: { time: { unit: 's', direction: 'lower', samples: times, summary: { n: times.length, mean: times.reduce((a, b) => a + b) / times.length } } },
});

describe('applying derived metrics', () => {
  test('per sample when inputs have samples: 10000 / time keeps the spread, unit 1/s, higher is better', () => {
    const [d] = compileDerived(config('  ports_per_sec: 10000 / time\n').derived);
    const input = [hyperfineLike('scan/a', [0.01, 0.02, 0.04])];
    const frozen = JSON.stringify(input);
    const { benchmarks, warnings } = applyDerived(input, [d!]);
    assert.equal(JSON.stringify(input), frozen, 'the input is not mutated');
    const m = benchmarks[0]!.metrics.ports_per_sec!;
    assert.deepEqual(m.samples, [1e6, 5e5, 2.5e5]);
    assert.equal(m.unit, '1/s');
    assert.equal(m.direction, 'higher');
    assert.equal(m.summary?.n, 3);
    assert.equal(m.summary?.median, 5e5);
    assert.deepEqual(warnings, []);
  });
  test('from central values when samples do not line up, as a single value, with unit and direction from config', () => {
    const [d] = compileDerived(config('  rps:\n    expr: requests / time\n    unit: req/s\n    direction: higher\n').derived);
    const b: BenchmarkResult = {
      id: 'load/wrk',
      status: 'ok',
      metrics: {
        requests: { unit: 'count', direction: 'higher', value: 90000 },
        time: { unit: 's', direction: 'lower', summary: { n: 5, mean: 30, stddev: 0.1 } },
      },
    };
    const m = applyDerived([b], [d!]).benchmarks[0]!.metrics.rps!;
    assert.equal(m.value, 3000);
    assert.equal(m.samples, undefined);
    assert.equal(m.unit, 'req/s');
    assert.equal(m.direction, 'higher');
  });
  test('benchmarks without the inputs, failed ones and non-matching ids are left alone; division by zero is skipped with a warning', () => {
    const derived = compileDerived(config('  per_sec:\n    expr: 1 / time\n    benchmarks: "scan/*"\n').derived);
    const failed: BenchmarkResult = { id: 'scan/f', status: 'failed', error: { message: 'exit 1' }, metrics: {} };
    const zero = hyperfineLike('scan/z', [0, 0.1]);
    const other = hyperfineLike('build/x', [0.5]);
    const { benchmarks, warnings } = applyDerived([failed, zero, other], derived);
    assert.equal(benchmarks[0], failed);
    assert.equal(benchmarks[1]!.metrics.per_sec, undefined);
    assert.equal(benchmarks[2]!.metrics.per_sec, undefined, 'glob scan/* does not match build/x');
    assert.ok(
      warnings.some((w) => /scan\/z: per_sec \(perf-gate.yml:6\) is not finite at sample 1 \(Infinity\)/.test(w)),
      warnings.join('\n'),
    );
    assert.ok(warnings.some((w) => /"per_sec" .* applied to no benchmark/.test(w)));
  });
  test('a later derived metric may read an earlier one; exact inputs give an exact result', () => {
    const derived = compileDerived(config('  ipc: instructions / cycles\n  ipc_pct: ipc * 100\n').derived);
    const b: BenchmarkResult = {
      id: 'x',
      status: 'ok',
      metrics: {
        instructions: { unit: 'count', direction: 'lower', exact: true, value: 300 },
        cycles: { unit: 'count', direction: 'lower', exact: true, value: 100 },
      },
    };
    const m = applyDerived([b], derived).benchmarks[0]!.metrics;
    assert.equal(m.ipc?.value, 3);
    assert.equal(m.ipc?.exact, true);
    assert.equal(m.ipc_pct?.value, 300);
  });
  test('unit inference covers counts per second, bytes per second and ratios, and gives up otherwise', () => {
    const unit = (e: string, units: Record<string, string>) => inferUnit(parseExpression(e), (m) => units[m]!);
    assert.equal(unit('10000 / time', { time: 's' }), '1/s');
    assert.equal(unit('bytes / time', { bytes: 'B', time: 's' }), 'B/s');
    assert.equal(unit('a / b', { a: 's', b: 's' }), 'count');
    assert.equal(unit('time * 1000', { time: 's' }), 's');
    assert.equal(unit('time + memory', { time: 's', memory: 'B' }), null);
  });
});
