import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertSurvives, budgetsTarget, configTarget, globTarget, judge, PER_HUGE_INPUT_MS } from '../support/fuzz-targets.js';

/**
 * Budget files and perf-gate.yml are written by people and reviewed in pull
 * requests, so they are untrusted text too: mutations of every budget file
 * and perf-gate.yml in the repository and its examples end in a parse or an
 * InputError naming the file, and the YAML tricks that hurt other tools (an
 * alias bomb, deep nesting, a 10 MB key) end quickly in one.
 */
for (const [target, seed] of [
  [budgetsTarget(), 21],
  [configTarget(), 22],
] as const) {
  describe(target.name, () => {
    test(`${target.seeds.length} seed files, 400 mutations: a parse or an InputError naming the file`, () => {
      assert.ok(target.seeds.length >= 8, `only ${target.seeds.length} seeds`);
      assertSurvives(target, 400, seed);
    });

    test('an alias bomb, 10,000 nested sequences and a 10 MB key end within the bound in an InputError', () => {
      const path = `/repo/${target.name === 'budgets' ? 'budgets/hostile.yml' : 'perf-gate.yml'}`;
      const bomb = [
        'version: 1',
        'a: &a ["x","x","x","x","x","x","x","x","x","x"]',
        ...Array.from(
          { length: 9 },
          (_, i) =>
            `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`,
        ),
      ].join('\n');
      const cases = [bomb, `version: 1\nbenchmarks: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`, `version: 1\n${'k'.repeat(10 * 1024 * 1024)}: 1\n`];
      for (const text of cases) {
        const outcome = target.run(text, path);
        assert.equal(outcome.kind, 'input-error', `${text.slice(0, 60)}…: ${outcome.kind === 'crash' ? outcome.why : 'parsed'}`);
        assert.equal(judge(target, text, path, PER_HUGE_INPUT_MS), null);
      }
    });
  });
}

describe('budget globs on hostile ids', () => {
  test('1,000 mutations of long and adversarial glob/id pairs: agreement with the regular expression where it is safe, and never a hang', () => {
    assertSurvives(globTarget(), 1000, 23);
  });
});
