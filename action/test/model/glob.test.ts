import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { compileGlob, DEFAULT_BUDGET_DEFAULTS, resolveBudget, type BudgetRule, type Budgets } from '../../src/model/index.js';
import { seededRandom } from '../../src/stats/index.js';
import { globReference } from '../support/fuzz-targets.js';

describe('globs on benchmark ids', () => {
  test('agree with the regular-expression reading on 20,000 random globs and ids', () => {
    const rng = seededRandom(7);
    const alphabet = ['a', 'b', '/', '[', '=', '*', '?'];
    const pick = (n: number, chars: string[]): string => Array.from({ length: n }, () => chars[rng.int(chars.length)]).join('');
    for (let i = 0; i < 20_000; i++) {
      const glob = pick(rng.int(8), alphabet);
      const id = pick(rng.int(10), alphabet.slice(0, 5));
      assert.equal(compileGlob(glob).test(id), globReference(glob).test(id), `${JSON.stringify(glob)} on ${JSON.stringify(id)}`);
    }
  });

  test('the literal ends it is filed under', () => {
    assert.equal(compileGlob('scan/*[n=*]').prefix, 'scan/');
    assert.equal(compileGlob('scan/*[n=*]').suffix, ']');
    assert.equal(compileGlob('a?c*').prefix, 'a');
    assert.equal(compileGlob('*x?yz').suffix, 'yz');
    assert.equal(compileGlob('exact').suffix, 'exact');
  });

  test('the hostile id of the hardening report (/[n= repeated 8,000 times) is decided without backtracking', { timeout: 10_000 }, () => {
    const id = '/[n='.repeat(8000);
    assert.equal(compileGlob('*/*[n=*]').test(id), false);
    assert.equal(compileGlob('*/*[n=*').test(id), true);
    assert.equal(compileGlob('*a*b*c*d*e*f*g*').test('x'.repeat(100_000)), false);
  });
});

describe('budget resolution through the rule index', () => {
  test('finds the same rules, in the same order, as testing every rule', () => {
    const rng = seededRandom(11);
    const words = ['scan', 'parse', 'io', 'scan/x', 'p'];
    const tails = ['*', '/*', '*]', '?*', '', '*[n=1]'];
    const rules: BudgetRule[] = Array.from({ length: 60 }, (_, i) => {
      const pattern = `${rng.int(4) === 0 ? '*' : (words[rng.int(words.length)] as string)}${tails[rng.int(tails.length)] as string}`;
      return {
        pattern,
        matcher: compileGlob(pattern),
        specificity: pattern.replace(/[*?]/g, '').length,
        ignore: false,
        metrics: { time: { stat: 'mean', tolerances: { regression: i / 100 }, source: { file: 'b.yml', line: i + 1 } } },
        source: { file: 'b.yml', line: i + 1 },
      };
    });
    const budgets: Budgets = { defaults: DEFAULT_BUDGET_DEFAULTS, rules, files: ['b.yml'] };
    const ids = ['scan/x[n=1]', 'parse', 'io/a', 'scan', 'p]', 'scan/xy', 'zzz', 'parse/deep/[n=1]', 'scan/x/'];
    for (const id of ids) {
      const brute = rules
        .map((rule, index) => ({ rule, index }))
        .filter(({ rule }) => globReference(rule.pattern).test(id))
        .sort((a, b) => b.rule.specificity - a.rule.specificity || a.index - b.index);
      const expected = brute[0]?.rule.metrics.time?.tolerances.regression ?? DEFAULT_BUDGET_DEFAULTS.regression;
      assert.equal(resolveBudget(budgets, id, 'time').tolerances.regression, expected, id);
      assert.equal(resolveBudget(budgets, id, 'time').rule, brute[0]?.rule, id);
    }
  });
});
