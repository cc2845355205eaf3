import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { decide, DEFAULT_GATE_OPTIONS, environmentChanges, learnDrift } from '../../src/gate/index.js';
import { EMPTY_BUDGETS, newResultSet, type BenchmarkResult, type Environment, type ResultSet } from '../../src/model/index.js';

const LINUX: Environment = {
  kernel: '6.1.0-25-amd64',
  microcode: '0xa201016',
  toolchains: { rustc: 'rustc 1.82.0 (f6e511eec 2024-10-15)', cargo: 'cargo 1.82.0 (8f40fc59f 2024-08-21)' },
  flags: { RUSTFLAGS: '-C target-cpu=native' },
  lockfiles: { 'Cargo.lock': '0123456789abcdef' },
};

function run(level: number, environment: Environment | undefined, seed = 1): ResultSet {
  const samples = Array.from({ length: 20 }, (_, i) => level * (1 + 0.004 * Math.sin(seed * 7 + i * 1.3)));
  const bench: BenchmarkResult = { id: 'parse', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples } } };
  return { ...newResultSet('2026-11-21T12:00:00Z', [bench]), ...(environment ? { environment } : {}) };
}

describe('environment changes between two runs', () => {
  test('names the kernel, microcode, each toolchain, flag and lockfile that differ, machine first', () => {
    const after: Environment = {
      kernel: '6.1.0-26-amd64',
      microcode: '0xa201016',
      toolchains: { rustc: 'rustc 1.83.0 (90b35a623 2024-11-26)', cargo: 'cargo 1.82.0 (8f40fc59f 2024-08-21)' },
      flags: {},
      lockfiles: { 'Cargo.lock': 'fedcba9876543210', 'fuzz/Cargo.lock': '1111222233334444' },
    };
    assert.deepEqual(environmentChanges(LINUX, after), [
      { kind: 'kernel', before: '6.1.0-25-amd64', after: '6.1.0-26-amd64' },
      { kind: 'toolchain', name: 'rustc', before: 'rustc 1.82.0 (f6e511eec 2024-10-15)', after: 'rustc 1.83.0 (90b35a623 2024-11-26)' },
      { kind: 'flag', name: 'RUSTFLAGS', before: '-C target-cpu=native', after: null },
      { kind: 'lockfile', path: 'Cargo.lock', before: '0123456789abcdef', after: 'fedcba9876543210' },
      { kind: 'lockfile', path: 'fuzz/Cargo.lock', before: null, after: '1111222233334444' },
    ]);
    assert.deepEqual(environmentChanges(LINUX, structuredClone(LINUX)), []);
  });

  test('unknown is not a change: a side without an environment, a part one side did not read, a tool only one side asked about', () => {
    assert.deepEqual(environmentChanges(undefined, LINUX), []);
    assert.deepEqual(environmentChanges(LINUX, undefined), []);
    const partial: Environment = { toolchains: { ...LINUX.toolchains!, go: 'go version go1.26.8 linux/amd64' } };
    assert.deepEqual(environmentChanges(LINUX, partial), [{ kind: 'flag', name: 'RUSTFLAGS', before: '-C target-cpu=native', after: null }]);
  });
});

describe('the gate and a changed environment', () => {
  test('the report lists the changes and flags the regressed rows only', () => {
    const newer = { ...LINUX, kernel: '6.1.0-26-amd64' };
    const slower = decide(run(1, LINUX), run(1.2, newer, 2), EMPTY_BUDGETS, DEFAULT_GATE_OPTIONS);
    assert.deepEqual(slower.environment, [{ kind: 'kernel', before: '6.1.0-25-amd64', after: '6.1.0-26-amd64' }]);
    assert.equal(slower.rows[0]!.status, 'regressed');
    assert.ok(slower.rows[0]!.flags.includes('environment-changed'));
    const same = decide(run(1, LINUX), run(1, newer, 2), EMPTY_BUDGETS, DEFAULT_GATE_OPTIONS);
    assert.notEqual(same.rows[0]!.status, 'regressed');
    assert.ok(!same.rows[0]!.flags.includes('environment-changed'));
    assert.ok(same.environment, 'the change is still said once above the table');
    const unchanged = decide(run(1, LINUX), run(1.2, LINUX, 2), EMPTY_BUDGETS, DEFAULT_GATE_OPTIONS);
    assert.equal(unchanged.environment, undefined);
    assert.ok(!unchanged.rows[0]!.flags.includes('environment-changed'));
  });
});

describe('the drift learned across an environment change', () => {
  test('a kernel step in the window is one large difference among small ones, which the median leaves out', () => {
    const kernel = { ...LINUX, kernel: '6.1.0-26-amd64' };
    const levels = [1, 1.004, 0.998, 1.002, 1.2, 1.203, 1.198, 1.201];
    const runs = levels.map((level, i) => run(level, i < 4 ? LINUX : kernel, i));
    const across = learnDrift(runs).get('parse\u0000time')!;
    const before = learnDrift(runs.slice(0, 4), { minRuns: 2 }).get('parse\u0000time')!;
    assert.equal(across.runs, 8);
    // Had the 20 % step counted, the drift would be near 7 %; it stays at the runs' own scatter.
    assert.ok(across.drift < 0.01 && across.drift < 2 * before.drift + 0.002, `${across.drift} vs ${before.drift}`);
  });
});
