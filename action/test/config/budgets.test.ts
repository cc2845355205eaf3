import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBudgets, parseBudgets } from '../../src/config/budgets.js';
import { DEFAULT_BUDGET_DEFAULTS, compileGlob, InputError, resolveBudget, type Budgets } from '../../src/model/index.js';
import { tempDir } from '../support/temp.js';

/** The example of docs/design.md, "Budgets", verbatim. */
const DESIGN_EXAMPLE = `version: 1
defaults:
  regression: 5%       # a significant slowdown beyond this fails the gate
  noise: 1%            # changes whose confidence interval stays inside ±noise are "unchanged"
  alpha: 0.01          # significance, controlled across the suite (false discovery rate)
benchmarks:
  "*-p 1-1000 127.0.0.1":            # glob on the benchmark id; the most specific match wins
    time: { max: 10ms }              # absolute budget on the current value (stat: mean by default)
  "*-p 1-10000 127.0.0.1":
    time: { max: 100ms, regression: 10% }
    memory_peak: { max: 20MB, severity: warn }
  "*migrationThroughput[entityCount=800]":
    throughput: { min: 100/s }
  "legacy/*": { ignore: true }
`;

function budgetsOf(text: string): Budgets {
  const parsed = parseBudgets(text, 'budgets/perf.yml');
  return { defaults: { ...DEFAULT_BUDGET_DEFAULTS, ...parsed.defaults }, rules: parsed.rules, files: ['budgets/perf.yml'] };
}

function errorOf(text: string): InputError {
  try {
    parseBudgets(text, 'budgets/bad.yml');
  } catch (error) {
    assert.ok(error instanceof InputError, `expected InputError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the budget file to be rejected');
}

describe('budget files', () => {
  test('the docs/design.md example parses into base units with its source lines', () => {
    const b = budgetsOf(DESIGN_EXAMPLE);
    assert.deepEqual({ regression: b.defaults.regression, noise: b.defaults.noise, alpha: b.defaults.alpha }, { regression: 0.05, noise: 0.01, alpha: 0.01 });
    const big = resolveBudget(b, 'scan/./target/release/prtip -p 1-10000 127.0.0.1', 'time');
    assert.equal(big.budget?.max?.value, 0.1);
    assert.equal(big.tolerances.regression, 0.1);
    assert.equal(big.budget?.source.line, 10);
    const mem = resolveBudget(b, 'scan/./target/release/prtip -p 1-10000 127.0.0.1', 'memory_peak');
    assert.equal(mem.budget?.max?.value, 20e6);
    assert.equal(mem.severity, 'warn');
    const jmh = resolveBudget(b, 'sim/com.example.DistributedMigrationBenchmark.migrationThroughput[entityCount=800]', 'throughput');
    assert.equal(jmh.budget?.min?.value, 100);
    assert.equal(resolveBudget(b, 'legacy/old', 'time').ignore, true);
    assert.equal(resolveBudget(b, 'scan/other', 'time').budget, undefined);
    assert.equal(resolveBudget(b, 'scan/other', 'time').tolerances.regression, 0.05);
  });

  test('globs treat brackets literally and * crosses slashes', () => {
    assert.ok(compileGlob('*migrationThroughput[entityCount=800]').test('a/b.migrationThroughput[entityCount=800]'));
    assert.ok(!compileGlob('*migrationThroughput[entityCount=800]').test('a.migrationThroughput[entityCount=8000]'));
    assert.ok(compileGlob('scan/*').test('scan/./target/release/x'));
    assert.ok(compileGlob('a?c').test('abc') && !compileGlob('a?c').test('abbc'));
  });

  test('the most specific match wins per metric; other metrics fall through to broader rules', () => {
    const b = budgetsOf(`version: 1
benchmarks:
  "*":
    time: { max: 1s }
    max_rss: { max: 100MB }
  "scan/*":
    time: { max: 10ms, severity: warn }
`);
    const time = resolveBudget(b, 'scan/x', 'time');
    assert.equal(time.budget?.max?.value, 0.01);
    assert.equal(time.severity, 'warn');
    assert.equal(resolveBudget(b, 'scan/x', 'max_rss').budget?.max?.value, 100e6);
    assert.equal(resolveBudget(b, 'other', 'time').budget?.max?.value, 1);
  });

  test('an unknown unit names the file, the line, the key and what was expected', () => {
    const e = errorOf('version: 1\nbenchmarks:\n  "a":\n    time: { max: 10parsecs }\n');
    assert.equal(e.file, 'budgets/bad.yml');
    assert.equal(e.line, 4);
    assert.equal(e.key, 'benchmarks.a.time.max');
    assert.match(e.message, /^budgets\/bad\.yml:4: .*10parsecs.*/);
    assert.match(e.message, /time \(ns, us, ms, s, min\)/);
  });

  test('a limit of the wrong kind for a known metric is rejected', () => {
    const e = errorOf('version: 1\nbenchmarks:\n  "a":\n    time: { max: 20MB }\n');
    assert.equal(e.line, 4);
    assert.match(e.message, /"20MB" is a size in bytes but time is a time; expected a time such as 10ms/);
  });

  test('YAML syntax errors, unknown keys, bad enums and versions are located', () => {
    assert.equal(errorOf('version: 1\nbenchmarks:\n  a: {time: {max: 1s}\n').line, 4);
    const unknown = errorOf('version: 1\ndefaults:\n  regresion: 5%\n');
    assert.match(unknown.message, /unknown key "regresion"/);
    const sev = errorOf('version: 1\nbenchmarks:\n  a:\n    time: { max: 1s, severity: maybe }\n');
    assert.equal(sev.line, 4);
    assert.match(sev.message, /expected one of "fail", "warn"/);
    assert.match(errorOf('version: 2\n').message, /version: expected 1/);
    assert.match(errorOf('').message, /empty/);
    assert.match(errorOf('version: 1\nbenchmarks:\n  a:\n    time: { min: 2s, max: 1s }\n').message, /min \(2s\) is above max \(1s\)/);
  });

  test('a folder of budget files merges, and conflicting defaults name both files', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'budgets'));
    writeFileSync(join(dir, 'budgets', 'a.yml'), 'version: 1\ndefaults:\n  regression: 3%\nbenchmarks:\n  "x/*":\n    time: { max: 5ms }\n');
    writeFileSync(join(dir, 'budgets', 'b.yaml'), 'version: 1\nbenchmarks:\n  "y/*":\n    time: { max: 7ms }\n');
    writeFileSync(join(dir, 'budgets', 'notes.txt'), 'not a budget');
    const b = loadBudgets(['budgets'], dir);
    assert.deepEqual(b.files, ['budgets/a.yml', 'budgets/b.yaml']);
    assert.equal(b.defaults.regression, 0.03);
    assert.equal(resolveBudget(b, 'y/1', 'time').budget?.max?.value, 0.007);
    writeFileSync(join(dir, 'budgets', 'c.yml'), 'version: 1\ndefaults:\n  regression: 10%\n');
    assert.throws(
      () => loadBudgets(['budgets'], dir),
      (e: unknown) => e instanceof InputError && /budgets\/c\.yml:3/.test(e.message) && /budgets\/a\.yml:3/.test(e.message),
    );
    assert.throws(() => loadBudgets(['nope'], dir), /nope: no such budget file or folder/);
  });
});

describe('budget resolution, field by field', () => {
  const b = (yaml: string): Budgets => {
    const parsed = parseBudgets(yaml, 'budgets/r.yml');
    return { defaults: { ...DEFAULT_BUDGET_DEFAULTS, ...parsed.defaults }, rules: parsed.rules, files: [] };
  };

  test("a more specific rule that sets only severity keeps the broader rule's limit", () => {
    const r = resolveBudget(
      b('version: 1\nbenchmarks:\n  "scan/*":\n    time: { max: 10ms }\n  "scan/sweep-*":\n    time: { severity: warn }\n'),
      'scan/sweep-1',
      'time',
    );
    assert.equal(r.budget?.max?.value, 0.01);
    assert.equal(r.severity, 'warn');
    assert.equal(r.budget?.source.line, 4);
  });

  test('a broad ignore does not hide a benchmark a more specific rule budgets', () => {
    const budgets = b('version: 1\nbenchmarks:\n  "legacy/*": { ignore: true }\n  "legacy/important":\n    time: { max: 10ms }\n');
    assert.equal(resolveBudget(budgets, 'legacy/important', 'time').ignore, false);
    assert.equal(resolveBudget(budgets, 'legacy/other', 'time').ignore, true);
  });

  test('a bare number where a percentage is expected is rejected, not guessed', () => {
    for (const yaml of ['version: 1\ndefaults:\n  regression: 0.05\n', 'version: 1\nbenchmarks:\n  a:\n    time: { noise: 1 }\n']) {
      assert.throws(
        () => parseBudgets(yaml, 'budgets/n.yml'),
        (e: unknown) => e instanceof InputError && /expected a percentage such as 5%, found [0-9.]+/.test(e.message) && e.line !== undefined,
      );
    }
  });
});
