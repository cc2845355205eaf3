import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseBudgets } from '../../src/config/budgets.js';
import { decide, DEFAULT_GATE_OPTIONS, TestbedMismatchError } from '../../src/gate/index.js';
import { DEFAULT_BUDGET_DEFAULTS, EMPTY_BUDGETS, InputError, newResultSet, type BenchmarkResult, type Budgets, type ResultSet } from '../../src/model/index.js';
import { reasonText, warningText } from '../../src/report/index.js';

/** Deterministic noise around a level: the same seed gives the same samples. */
function samples(level: number, n: number, seed: number, spread = 0.02): number[] {
  let s = seed;
  return Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return level * (1 + spread * (s / 2147483648 - 0.5));
  });
}

function bench(id: string, values: number[], extra: Partial<BenchmarkResult> = {}): BenchmarkResult {
  return { id, status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: values } }, ...extra };
}

function set(benchmarks: BenchmarkResult[], extra: Partial<ResultSet> = {}): ResultSet {
  return { ...newResultSet('2026-11-21T12:00:00Z', benchmarks), ...extra };
}

function budgets(yaml: string): Budgets {
  const parsed = parseBudgets(yaml, 'budgets/t.yml');
  return { defaults: { ...DEFAULT_BUDGET_DEFAULTS, ...parsed.defaults }, rules: parsed.rules, files: ['budgets/t.yml'] };
}

describe('the gate', () => {
  test('a 30 % slowdown is regressed and fails; an unchanged benchmark passes', () => {
    const report = decide(
      set([bench('a', samples(0.01, 20, 1)), bench('b', samples(0.02, 20, 2))]),
      set([bench('a', samples(0.013, 20, 3)), bench('b', samples(0.02, 20, 4))]),
      EMPTY_BUDGETS,
    );
    const a = report.rows.find((r) => r.benchmark === 'a')!;
    const b = report.rows.find((r) => r.benchmark === 'b')!;
    assert.equal(a.status, 'regressed');
    assert.ok(a.change! > 0.25 && a.change! < 0.35, `change ${a.change}`);
    assert.ok(a.failsGate);
    assert.notEqual(b.status, 'regressed');
    assert.ok(!b.failsGate);
    assert.equal(report.verdict, 'fail');
    assert.equal(report.counts.regressed, 1);
  });

  test('without a baseline every row is new and only the budgets decide', () => {
    const b = budgets('version: 1\nbenchmarks:\n  "slow":\n    time: { max: 5ms }\n  "fast":\n    time: { max: 50ms }\n');
    const report = decide(undefined, set([bench('slow', samples(0.01, 5, 1)), bench('fast', samples(0.01, 5, 2))]), b);
    assert.deepEqual(
      report.rows.map((r) => r.status),
      ['new', 'new'],
    );
    const slow = report.rows[0]!;
    assert.equal(slow.budget?.result, 'fail');
    assert.equal(slow.budget?.source, 'budgets/t.yml:4');
    assert.ok(slow.failsGate);
    assert.equal(report.rows[1]!.budget?.result, 'pass');
    assert.equal(report.verdict, 'fail');
    assert.equal(report.counts.budgetFailed, 1);
    assert.ok(report.warnings.some((w) => w.code === 'no-baseline'));
  });

  test('a budget of severity warn is reported but does not fail the gate', () => {
    const b = budgets('version: 1\nbenchmarks:\n  "*":\n    time: { max: 1ms, severity: warn }\n');
    const report = decide(undefined, set([bench('x', samples(0.01, 5, 1))]), b);
    assert.equal(report.rows[0]!.budget?.result, 'fail');
    assert.equal(report.verdict, 'pass');
    assert.equal(report.counts.budgetWarned, 1);
  });

  test('a failed benchmark is a failed row that fails the gate, never dropped', () => {
    const crashed = bench('x', [], { status: 'failed', error: { message: 'exited with code 139', logTail: 'Segmentation fault' }, metrics: {} });
    const report = decide(set([bench('x', samples(0.01, 10, 1))]), set([crashed]), EMPTY_BUDGETS);
    assert.equal(report.rows.length, 1);
    assert.equal(report.rows[0]!.status, 'failed');
    assert.equal(report.rows[0]!.error?.logTail, 'Segmentation fault');
    assert.equal(report.verdict, 'fail');
  });

  test('missing benchmarks are shown, and fail only when the budgets say so', () => {
    const base = set([bench('kept', samples(0.01, 10, 1)), bench('gone', samples(0.01, 10, 2))]);
    const cur = set([bench('kept', samples(0.01, 10, 3)), bench('added', samples(0.01, 10, 4))]);
    const shown = decide(base, cur, EMPTY_BUDGETS);
    assert.deepEqual(
      shown.rows.map((r) => [r.benchmark, r.status === 'missing' || r.status === 'new' ? r.status : 'compared']),
      [
        ['kept', 'compared'],
        ['added', 'new'],
        ['gone', 'missing'],
      ],
    );
    assert.equal(shown.verdict, 'pass');
    const strict = decide(base, cur, budgets('version: 1\ndefaults:\n  missing: fail\n'));
    assert.equal(strict.verdict, 'fail');
  });

  test('ignored benchmarks leave the table and are listed in a warning; unused globs warn', () => {
    const b = budgets('version: 1\nbenchmarks:\n  "legacy/*": { ignore: true }\n  "typo/*":\n    time: { max: 1s }\n');
    const report = decide(undefined, set([bench('legacy/old', samples(0.01, 5, 1)), bench('new/x', samples(0.01, 5, 2))]), b);
    assert.deepEqual(
      report.rows.map((r) => r.benchmark),
      ['new/x'],
    );
    assert.ok(report.warnings.some((w) => w.code === 'ignored-benchmarks' && warningText(w).includes('legacy/old')));
    assert.ok(report.warnings.some((w) => w.code === 'unused-budget' && warningText(w).includes('"typo/*"') && warningText(w).startsWith('budgets/t.yml:4')));
  });

  test('different testbeds are flagged, or refused when asked', () => {
    const base = set([bench('a', samples(0.01, 10, 1))], { testbed: { id: 'box-1' } });
    const cur = set([bench('a', samples(0.01, 10, 2))], { testbed: { id: 'box-2' } });
    const report = decide(base, cur, EMPTY_BUDGETS);
    assert.ok(report.rows[0]!.flags.includes('different-testbed'));
    assert.ok(report.warnings.some((w) => w.code === 'different-testbed'));
    assert.throws(() => decide(base, cur, EMPTY_BUDGETS, { ...DEFAULT_GATE_OPTIONS, testbedMismatch: 'refuse' }), TestbedMismatchError);
  });

  test("testbeds recorded two ways (a harness's metadata, the runner's fingerprint) are not compared: neither flagged nor the same", () => {
    const pyperfBase = set([bench('a', samples(0.01, 10, 1))], { testbed: { id: 'pyperf-0123456789ab', source: 'pyperf metadata' } });
    const runnerHead = set([bench('a', samples(0.01, 10, 2))], { testbed: { id: 'box-2' } });
    const report = decide(pyperfBase, runnerHead, EMPTY_BUDGETS, { ...DEFAULT_GATE_OPTIONS, testbedMismatch: 'refuse' });
    assert.ok(!report.rows[0]!.flags.includes('different-testbed'));
    const otherPyperf = set([bench('a', samples(0.01, 10, 2))], { testbed: { id: 'pyperf-ba9876543210', source: 'pyperf metadata' } });
    assert.throws(() => decide(pyperfBase, otherPyperf, EMPTY_BUDGETS, { ...DEFAULT_GATE_OPTIONS, testbedMismatch: 'refuse' }), TestbedMismatchError);
  });

  test('a budget can override the direction: a higher value is then an improvement', () => {
    const metric = (values: number[]) => ({
      id: 'q',
      status: 'ok' as const,
      metrics: { score: { unit: 'count', direction: 'lower' as const, samples: values } },
    });
    const b = budgets('version: 1\nbenchmarks:\n  "q":\n    score: { direction: higher }\n');
    const report = decide(set([metric(samples(100, 20, 1))]), set([metric(samples(130, 20, 2))]), b);
    assert.equal(report.rows[0]!.direction, 'higher');
    assert.equal(report.rows[0]!.status, 'improved');
    assert.equal(report.verdict, 'pass');
  });

  test('a regression with severity warn does not fail the gate', () => {
    const b = budgets('version: 1\nbenchmarks:\n  "a":\n    time: { severity: warn }\n');
    const report = decide(set([bench('a', samples(0.01, 20, 1))]), set([bench('a', samples(0.013, 20, 2))]), b);
    assert.equal(report.rows[0]!.status, 'regressed');
    assert.equal(report.verdict, 'pass');
  });
});

describe('scaling budgets in the gate', () => {
  const sweep = (power: number) =>
    [100, 200, 400, 800].map((n, i) =>
      bench(`sim/grow[entityCount=${n}]`, samples(1e-6 * n ** power, 10, 10 + i, 0.01), { params: { entityCount: String(n) } }),
    );
  const b = budgets('version: 1\nbenchmarks:\n  "sim/*":\n    time: { exponent: { param: entityCount, max: 1.1 } }\n');

  test('a linear sweep passes an exponent limit of 1.1 and a quadratic one fails it', () => {
    const linear = decide(undefined, set(sweep(1)), b);
    const row = linear.rows.find((r) => r.metric.startsWith('time ∝'))!;
    assert.equal(row.benchmark, 'sim/grow');
    assert.ok(Math.abs(row.current!.value - 1) < 0.05, `k = ${row.current!.value}`);
    assert.equal(row.budget?.result, 'pass');
    assert.equal(row.budget?.stat, 'exponent');
    assert.equal(linear.verdict, 'pass');

    const quadratic = decide(undefined, set(sweep(2)), b);
    const q = quadratic.rows.find((r) => r.metric.startsWith('time ∝'))!;
    assert.ok(Math.abs(q.current!.value - 2) < 0.05);
    assert.equal(q.budget?.result, 'fail');
    assert.ok(q.failsGate);
    assert.equal(quadratic.verdict, 'fail');
  });

  test('a crashed sweep point is its own failed row while the fit uses the others', () => {
    const points = sweep(1);
    points[2] = bench(points[2]!.id, [], { status: 'failed', error: { message: 'exit 3' }, metrics: {}, params: { entityCount: '400' } });
    const report = decide(undefined, set(points), b);
    assert.equal(report.rows.find((r) => r.benchmark === 'sim/grow[entityCount=400]')!.status, 'failed');
    const fit = report.rows.find((r) => r.metric.startsWith('time ∝'))!;
    assert.equal(fit.current!.n, 3);
    assert.match(reasonText(fit.reason), /1 point failed/);
  });
});

test('metrics the tool could not measure are named in a warning, never shown as zero', () => {
  const counted = bench('perf/x', samples(0.01, 5, 1), { unavailable: { instructions: '<not supported>', cycles: '<not counted>' } });
  const report = decide(undefined, set([counted]), EMPTY_BUDGETS);
  assert.ok(!report.rows.some((r) => r.metric === 'instructions'));
  const warning = report.warnings.find((w) => w.code === 'unavailable-metrics')!;
  assert.match(warningText(warning), /^perf\/x: instructions <not supported>, cycles <not counted>: /);
});

test('across testbeds a regression is shown but fails the gate only with testbedMismatch "compare"', () => {
  const base = set([bench('a', samples(0.01, 20, 1))], { testbed: { id: 'box-1' } });
  const cur = set([bench('a', samples(0.013, 20, 2))], { testbed: { id: 'box-2' } });
  const flagged = decide(base, cur, EMPTY_BUDGETS);
  assert.equal(flagged.rows[0]!.status, 'regressed');
  assert.ok(flagged.rows[0]!.flags.includes('different-testbed'));
  assert.equal(flagged.verdict, 'pass');
  assert.match(warningText(flagged.warnings.find((w) => w.code === 'different-testbed')!), /do not fail the gate; budgets still do/);
  const compared = decide(base, cur, EMPTY_BUDGETS, { ...DEFAULT_GATE_OPTIONS, testbedMismatch: 'compare' });
  assert.equal(compared.verdict, 'fail');
});

test('a configured between-run drift keeps a shift of that size from being called a regression', () => {
  // Tight samples 8 % apart: significant on their own, but within a 10 % drift between runs.
  const base = set([bench('a', samples(0.01, 20, 1, 0.005))]);
  const cur = set([bench('a', samples(0.0108, 20, 2, 0.005))]);
  const withoutDrift = decide(base, cur, budgets('version: 1\ndefaults:\n  regression: 5%\n'));
  assert.equal(withoutDrift.rows[0]!.status, 'regressed');
  const withDrift = decide(base, cur, budgets('version: 1\ndefaults:\n  regression: 5%\n  drift: 10%\n'));
  assert.notEqual(withDrift.rows[0]!.status, 'regressed');
  assert.match(reasonText(withDrift.rows[0]!.reason), /drift/);
  // A real 30 % slowdown still stands out from a 3 % drift.
  const big = decide(base, set([bench('a', samples(0.013, 20, 3, 0.005))]), budgets('version: 1\ndefaults:\n  drift: 3%\n'));
  assert.equal(big.rows[0]!.status, 'regressed');
});

describe('odd input the gate must not wave through', () => {
  test('an empty current run is unusable input, not a pass', () => {
    assert.throws(
      () => decide(set([bench('a', samples(0.01, 5, 1))]), set([]), EMPTY_BUDGETS),
      (e: unknown) => e instanceof InputError && /no benchmarks/.test(e.message),
    );
  });

  test('a limit in bytes on a custom metric measured in seconds names the budget line', () => {
    const custom = { id: 'p', status: 'ok' as const, metrics: { parse_time: { unit: 's', direction: 'lower' as const, samples: samples(5, 5, 1) } } };
    assert.throws(
      () => decide(undefined, set([custom]), budgets('version: 1\nbenchmarks:\n  "p":\n    parse_time: { max: 20MB }\n')),
      (e: unknown) => e instanceof InputError && e.file === 'budgets/t.yml' && e.line === 4 && /measured in s/.test(e.message),
    );
  });

  test('a value that is not a number fails its budget instead of passing it', () => {
    const odd = { id: 'n', status: 'ok' as const, metrics: { time: { unit: 's', direction: 'lower' as const, value: Number.NaN } } };
    const report = decide(undefined, set([odd]), budgets('version: 1\nbenchmarks:\n  "n":\n    time: { max: 10ms }\n'));
    assert.equal(report.rows[0]!.budget?.result, 'fail');
  });

  test('p95 on a summary without samples is checked on its max, and says so', () => {
    const summary = {
      id: 's',
      status: 'ok' as const,
      metrics: { time: { unit: 's', direction: 'lower' as const, summary: { n: 10, mean: 0.005, stddev: 0.001, max: 0.02 } } },
    };
    const report = decide(undefined, set([summary]), budgets('version: 1\nbenchmarks:\n  "s":\n    time: { max: 10ms, stat: p95 }\n'));
    assert.equal(report.rows[0]!.budget?.stat, 'max');
    assert.equal(report.rows[0]!.budget?.result, 'fail');
  });

  test('NaN samples on both sides are inconclusive, never a regression or improvement', () => {
    const nan = (id: string) => ({ id, status: 'ok' as const, metrics: { throughput: { unit: '1/s', direction: 'higher' as const, value: Number.NaN } } });
    const report = decide(set([nan('t')]), set([nan('t')]), EMPTY_BUDGETS);
    assert.ok(!['regressed', 'improved'].includes(report.rows[0]!.status), report.rows[0]!.status);
    assert.equal(report.verdict, 'pass');
  });
});

test("each --testbed-mismatch mode says what that mode does, and no other mode's words", () => {
  const base = set([bench('a', samples(0.01, 20, 1))], { testbed: { id: 'box-1' } });
  const cur = set([bench('a', samples(0.013, 20, 2))], { testbed: { id: 'box-2' } });
  const warning = (mode: 'flag' | 'compare'): string =>
    decide(base, cur, EMPTY_BUDGETS, { ...DEFAULT_GATE_OPTIONS, testbedMismatch: mode })
      .warnings.map(warningText)
      .find((t) => t.includes('testbed'))!;
  const flag = warning('flag');
  assert.match(flag, /regressions are shown but do not fail the gate; budgets still do/);
  const compare = warning('compare');
  assert.match(compare, /regressions still fail the gate/);
  assert.doesNotMatch(compare, /do not fail/);
  let refused = '';
  try {
    decide(base, cur, EMPTY_BUDGETS, { ...DEFAULT_GATE_OPTIONS, testbedMismatch: 'refuse' });
  } catch (error) {
    assert.ok(error instanceof TestbedMismatchError);
    refused = error.message;
  }
  assert.match(refused, /the comparison is refused/);
  assert.doesNotMatch(refused, /do not fail the gate|still fail the gate|budgets still do/);
  assert.match(refused, /box-1/);
  assert.match(refused, /box-2/);
});

describe('the gate on exact counts', () => {
  const counts = (id: string, values: number[]): BenchmarkResult => ({
    id,
    status: 'ok',
    metrics: { instructions: { unit: 'count', direction: 'lower', exact: true, samples: values } },
  });

  test("counts are gated at 0.5 % by default, at a budget's tolerance when one sets it, and at defaults.count-regression", () => {
    const base = set([counts('a', [1_000_000, 1_000_000, 1_000_000]), counts('b', [1_000_000, 1_000_000, 1_000_000])]);
    const head = set([counts('a', [1_015_000, 1_015_000, 1_015_000]), counts('b', [1_003_000, 1_003_000, 1_003_000])]);
    const status = (b: Budgets): Record<string, string> =>
      Object.fromEntries(decide(base, head, b).rows.map((r) => [r.benchmark, `${r.status} ${r.tolerance}`]));
    assert.deepEqual(status(EMPTY_BUDGETS), { a: 'regressed 0.005', b: 'unchanged 0.005' });
    // A time default does not loosen counts; a rule for the metric does, and so does the count default.
    assert.deepEqual(status(budgets('version: 1\ndefaults:\n  regression: 10%\n')), { a: 'regressed 0.005', b: 'unchanged 0.005' });
    assert.deepEqual(status(budgets('version: 1\nbenchmarks:\n  a:\n    instructions: { regression: 2% }\n')), { a: 'unchanged 0.02', b: 'unchanged 0.005' });
    assert.deepEqual(status(budgets('version: 1\ndefaults:\n  count-regression: 0.2%\n')), { a: 'regressed 0.002', b: 'regressed 0.002' });
  });

  test('counts that move between identical repeats by their tolerance or more are a warning saying so', () => {
    const base = set([counts('steady', [1_000_000, 1_000_001, 1_000_000]), counts('wobbly', [990_000, 1_010_000, 1_000_000])]);
    const head = set([counts('steady', [1_000_000, 1_000_000, 1_000_002]), counts('wobbly', [1_000_000, 1_001_000, 1_002_000])]);
    const report = decide(base, head, EMPTY_BUDGETS);
    const warnings = report.warnings.filter((w) => w.code === 'unsteady-counts');
    assert.equal(warnings.length, 1);
    assert.deepEqual(warnings[0], { code: 'unsteady-counts', benchmark: 'wobbly', metrics: [{ metric: 'instructions', spread: 0.02, tolerance: 0.005 }] });
    assert.equal(
      warningText(warnings[0]!),
      "wobbly: instructions moved 2 % between identical runs (tolerance 0.5 %): these counts are not deterministic here, so their verdict cannot be trusted. Remove the cause (address-space randomisation, environment size, hash seeds, a JIT's warm-up) or set a wider `regression:` for them in the budgets.",
    );
  });
});
