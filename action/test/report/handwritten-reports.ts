import { REPORT_SCHEMA, type GateReport, type RowStatus, type SideStats, type VerdictRow } from '../../src/gate/types.js';

/**
 * Hand-built GateReports for the reporter tests and golden files. Reporters
 * compute nothing that affects a verdict, so these rows are written as the
 * gate would decide them; counts are derived from the rows the way the gate
 * counts them.
 */

export function side(value: number, stddev: number | null, n: number): SideStats {
  return { value, n, mean: value, median: value, stddev, min: stddev === null ? value : value - 2 * stddev, max: stddev === null ? value : value + 2 * stddev };
}

/** A row with quiet defaults; tests override what they show. */
export function row(overrides: Partial<VerdictRow> & Pick<VerdictRow, 'benchmark' | 'status'>): VerdictRow {
  return {
    metric: 'time',
    unit: 's',
    direction: 'lower',
    baseline: side(0.00446, 0.00039, 20),
    current: side(0.00449, 0.00041, 20),
    change: 0.0067,
    ci: [-0.012, 0.025],
    ciLevel: 0.95,
    p: 0.41,
    flags: [],
    budget: null,
    severity: 'fail',
    tolerance: 0.05,
    samplesNeeded: null,
    reason: { code: 'text', text: 'Mann–Whitney U on 20 + 20 samples; the interval lies inside ±5 %.' },
    error: null,
    failsGate: false,
    ...overrides,
  };
}

/** Builds a report from rows, counting the way the gate does. */
export function reportOf(rows: VerdictRow[], extra: Partial<GateReport> = {}): GateReport {
  const statuses: RowStatus[] = ['regressed', 'improved', 'unchanged', 'inconclusive', 'new', 'missing', 'failed'];
  const counts = Object.fromEntries(statuses.map((s) => [s, rows.filter((r) => r.status === s).length])) as Record<RowStatus, number>;
  return {
    schema: REPORT_SCHEMA,
    verdict: rows.some((r) => r.failsGate) ? 'fail' : 'pass',
    counts: {
      ...counts,
      budgetFailed: rows.filter((r) => r.budget?.result === 'fail' && r.budget.severity === 'fail').length,
      budgetWarned: rows.filter((r) => r.budget?.result === 'fail' && r.budget.severity === 'warn').length,
    },
    rows,
    warnings: [],
    baseline: { commit: '9fceb02d0ae598e95dc970b74767f19372d61af8', ref: 'refs/heads/main', created: '2026-11-20T10:00:00Z', testbed: 'tb-1' },
    current: { commit: '2c1743a391305fbf367df8e4f069f9f9a4bfcd3f', ref: 'refs/pull/42/merge', created: '2026-11-21T12:00:00Z', testbed: 'tb-1' },
    ...extra,
  };
}

/** Every kind of row the reporters must show, in a deliberately shuffled order. */
export function mixedReport(): GateReport {
  return reportOf(
    [
      row({ benchmark: 'scan/prtip -p 1-100 127.0.0.1', status: 'unchanged' }),
      row({
        benchmark: 'scan/prtip -p 1-1000 127.0.0.1',
        status: 'regressed',
        failsGate: true,
        baseline: side(0.00446, 0.00039, 20),
        current: side(0.00585, 0.00041, 20),
        change: 0.312,
        ci: [0.27, 0.355],
        p: 0.00002,
        budget: {
          kind: 'max',
          limit: 0.01,
          stat: 'mean',
          value: 0.00585,
          result: 'pass',
          baselineResult: 'pass',
          severity: 'fail',
          source: 'budgets/scan.yml:5',
        },
        reason: { code: 'text', text: 'Mann–Whitney U on 20 + 20 samples; the whole interval lies beyond the 5 % tolerance.' },
      }),
      row({
        benchmark: 'sim/migrationThroughput[entityCount=800]',
        metric: 'throughput',
        unit: '1/s',
        direction: 'higher',
        status: 'improved',
        baseline: side(812.4, 11.2, 10),
        current: side(951.0, 9.8, 10),
        change: 0.1706,
        ci: [0.148, 0.193],
        p: 0.0004,
        budget: { kind: 'min', limit: 100, stat: 'mean', value: 951.0, result: 'pass', baselineResult: 'pass', severity: 'fail', source: 'budgets/sim.yml:3' },
      }),
      row({
        benchmark: 'scan/prtip -p 1-10000 127.0.0.1',
        metric: 'memory_peak',
        unit: 'B',
        status: 'unchanged',
        baseline: side(20_400_000, 150_000, 5),
        current: side(20_600_000, 160_000, 5),
        change: 0.0098,
        ci: [-0.004, 0.021],
        p: 0.3,
        budget: {
          kind: 'max',
          limit: 20_000_000,
          stat: 'mean',
          value: 20_600_000,
          result: 'fail',
          baselineResult: 'fail',
          severity: 'warn',
          source: 'budgets/scan.yml:9',
        },
      }),
      row({
        benchmark: 'http/wrk GET /index.html',
        metric: 'latency_p99',
        status: 'inconclusive',
        baseline: side(0.0021, 0.0004, 3),
        current: side(0.0024, 0.0009, 3),
        change: 0.143,
        ci: [-0.09, 0.41],
        p: 0.2,
        flags: ['insufficient-samples', 'noisier'],
        samplesNeeded: 40,
        reason: { code: 'text', text: 'The interval spans both sides of the tolerance with 3 samples per side.' },
      }),
      row({
        benchmark: 'sim/tick[nodes=64]',
        status: 'failed',
        failsGate: true,
        baseline: side(0.91, 0.02, 10),
        current: null,
        change: null,
        ci: null,
        ciLevel: null,
        p: null,
        error: {
          message: 'exit code 137 (killed by SIGKILL)',
          logTail: '[info] warming up\n[info] iteration 3\njava.lang.OutOfMemoryError: Java heap space\n\tat Sim.tick(Sim.java:88)\nKilled',
        },
        reason: { code: 'text', text: 'The benchmark failed.' },
      }),
      row({
        benchmark: 'scan/prtip --udp -p 53',
        status: 'new',
        baseline: null,
        change: null,
        ci: null,
        ciLevel: null,
        p: null,
        reason: { code: 'text', text: 'No baseline for this benchmark.' },
      }),
      row({
        benchmark: 'scan/prtip --legacy',
        status: 'missing',
        current: null,
        change: null,
        ci: null,
        ciLevel: null,
        p: null,
        reason: { code: 'text', text: 'In the baseline, not in this run.' },
      }),
      row({
        benchmark: 'scan/syscalls',
        metric: 'syscalls',
        unit: 'count',
        status: 'unchanged',
        flags: ['exact'],
        baseline: side(1234, null, 1),
        current: side(1234, null, 1),
        change: 0,
        ci: null,
        ciLevel: null,
        p: null,
      }),
      row({
        benchmark: 'tcp/swift concurrency total',
        status: 'regressed',
        failsGate: false,
        severity: 'warn',
        flags: ['single-sample'],
        baseline: side(1.42, null, 1),
        current: side(1.61, null, 1),
        change: 0.1338,
        ci: null,
        ciLevel: null,
        p: null,
        budget: { kind: 'max', limit: 2, stat: 'mean', value: 1.61, result: 'pass', baselineResult: 'pass', severity: 'fail', source: 'budgets/swift.yml:4' },
      }),
      row({
        benchmark: 'odd/nan-data',
        status: 'inconclusive',
        baseline: side(Number.NaN, Number.NaN, 2),
        current: side(0.003, null, 1),
        change: Number.NaN,
        ci: [Number.NaN, Number.POSITIVE_INFINITY],
        p: Number.NaN,
        reason: { code: 'text', text: 'Baseline samples are not numbers.' },
      }),
    ],
    {
      warnings: [{ code: 'unused-budget', text: 'Budget "legacy/*" in budgets/scan.yml:12 matches no benchmark; fix the glob or remove it.' }],
    },
  );
}

/** Everything fine: unchanged and improved rows only. */
export function passingReport(): GateReport {
  return reportOf([
    row({ benchmark: 'scan/prtip -p 1-100 127.0.0.1', status: 'unchanged' }),
    row({ benchmark: 'scan/prtip -p 1-1000 127.0.0.1', status: 'unchanged', change: -0.011, ci: [-0.03, 0.008] }),
    row({
      benchmark: 'scan/prtip -p 1-10000 127.0.0.1',
      status: 'improved',
      baseline: side(0.094, 0.003, 20),
      current: side(0.081, 0.002, 20),
      change: -0.138,
      ci: [-0.16, -0.12],
      p: 0.00001,
      budget: { kind: 'max', limit: 0.1, stat: 'mean', value: 0.081, result: 'pass', baselineResult: 'pass', severity: 'fail', source: 'budgets/scan.yml:7' },
    }),
  ]);
}

/** A release compared with the previous release: budgets, variance changes, a regression. */
export function releaseReport(): GateReport {
  return reportOf(
    [
      row({
        benchmark: 'scan/prtip -p 1-10000 127.0.0.1',
        status: 'regressed',
        failsGate: true,
        flags: ['noisier'],
        baseline: side(0.049, 0.0031, 20),
        current: side(0.096, 0.0297, 20),
        change: 0.96,
        ci: [0.81, 1.12],
        p: 0.00001,
        budget: { kind: 'max', limit: 0.1, stat: 'mean', value: 0.096, result: 'pass', baselineResult: 'pass', severity: 'fail', source: 'budgets/scan.yml:7' },
      }),
      row({
        benchmark: 'scan/prtip -p 1-1000 127.0.0.1',
        status: 'unchanged',
        budget: {
          kind: 'max',
          limit: 0.01,
          stat: 'mean',
          value: 0.00449,
          result: 'pass',
          baselineResult: 'pass',
          severity: 'fail',
          source: 'budgets/scan.yml:5',
        },
      }),
      row({
        benchmark: 'scan/prtip -p 1-10000 127.0.0.1',
        metric: 'memory_peak',
        unit: 'B',
        status: 'unchanged',
        baseline: side(19_100_000, 100_000, 5),
        current: side(21_300_000, 120_000, 5),
        change: 0.115,
        ci: [0.1, 0.13],
        p: 0.008,
        tolerance: 0.2,
        budget: {
          kind: 'max',
          limit: 20_000_000,
          stat: 'mean',
          value: 21_300_000,
          result: 'fail',
          baselineResult: 'pass',
          severity: 'fail',
          source: 'budgets/scan.yml:8',
        },
        failsGate: true,
      }),
    ],
    { baseline: { commit: 'v1.4.0', ref: 'refs/tags/v1.4.0' }, current: { commit: 'c0ffee0c0ffee0c0ffee0c0ffee0c0ffee0c0ffe', ref: 'refs/tags/v1.5.0' } },
  );
}

/** Untrusted names trying every trick a PR author could put in a benchmark name. */
export const HOSTILE_NAMES = [
  'a | b | c',
  'x <!-- perf-gate --> y',
  'ping @someone and @org/team',
  'code `rm -rf` ``` fence',
  '$(touch pwned)',
  '<script>alert(1)</script>',
  'two\nlines\r\nthree',
  '# heading',
  '[click](https://example.invalid) ![img](x)',
  'close --> and open <!--',
  'issue #123 \u202Ereversed\u202C \u001b[31mred\u001b[0m',
  '**bold** _em_ ~~strike~~ \\| escaped pipe',
];

export function hostileReport(): GateReport {
  return reportOf(
    HOSTILE_NAMES.map((name, i) =>
      row({
        benchmark: name,
        metric: `m${i}|${name}`,
        status: i % 2 === 0 ? 'regressed' : 'unchanged',
        failsGate: i % 2 === 0,
        unit: i === 3 ? 'frames|<b>@x</b>' : 's',
        error: null,
      }),
    ).concat([
      row({
        benchmark: 'fails @someone <!-- perf-gate -->',
        status: 'failed',
        failsGate: true,
        current: null,
        change: null,
        ci: null,
        p: null,
        error: { message: 'exit 1: `boom` @someone <!-- x -->', logTail: 'line 1\n```\n</details>\n<!-- perf-gate -->\n@someone\n````\nend' },
      }),
    ]),
    { warnings: [{ code: 'unused-budget', text: 'Budget "@someone | <!-- perf-gate -->" matches nothing' }] },
  );
}
