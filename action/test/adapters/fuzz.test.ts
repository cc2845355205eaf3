import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileInput, parseInput } from '../../src/adapters/index.js';
import { adapterTargets, assertSurvives, autoDetectTarget, classifyError, judge, PER_HUGE_INPUT_MS } from '../support/fuzz-targets.js';
import { deepNesting, reformattedJson } from '../support/mutations.js';

/**
 * Every adapter, fed mutations of its own fixtures (truncated anywhere, a
 * character flipped, a number made NaN/Infinity/huge/negative, lines removed
 * or repeated, JSON keys removed, repeated or nested deep): each input ends
 * in a correct parse or an InputError naming the file, within a time bound.
 * Seeds are fixed so a failure reproduces; `npm run fuzz` runs the same
 * properties far longer with fresh seeds (docs/reliability.md).
 */
const RUNS = 120;
/** Every adapter with seeds, computed once for all the groups below. */
const targets = adapterTargets();

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('adapters survive mutated input', () => {
  test('every adapter with a fixture is fuzzed', () => {
    // custom-json's two directions and console-time are the only formats whose fixtures are shared or sparse; all 46 have seeds.
    assert.ok(targets.length >= 35, `only ${targets.length} adapters have seeds: ${targets.map((t) => t.name).join(', ')}`);
  });

  targets.forEach((target, i) => {
    test(`${target.name}: ${RUNS} mutations of its ${target.seeds.length} fixture(s) parse or fail with an InputError naming the file`, () => {
      assertSurvives(target, RUNS, 1000 + i);
    });
  });

  test(`auto-detection: ${RUNS * 3} mutations of every fixture parse or fail with an InputError naming the file`, () => {
    assertSurvives(autoDetectTarget(), RUNS * 3, 7);
  });
});

describe('adapters ignore what does not matter', () => {
  for (const target of targets) {
    const jsonSeeds = target.seeds.filter((s) => isJson(s.text));
    if (jsonSeeds.length === 0) continue;
    // Benchmarks keyed by name (BMF, JMH params) come in key order, which is no part of the result: compared by id.
    const parse = (text: string, path: string) =>
      parseInput(fileInput(path, text), target.name.replace('adapter ', '')).sort((a, b) => a.id.localeCompare(b.id));
    test(`${target.name}: indentation and key order leave the parse unchanged`, () => {
      for (const seed of jsonSeeds) {
        const expected = parse(seed.text, seed.path);
        for (const text of reformattedJson(seed.text)) assert.deepEqual(parse(text, seed.path), expected, seed.path);
      }
    });
  }
});

describe('text formats ignore line endings, trailing spaces and trailing blank lines', () => {
  for (const target of targets) {
    const textSeeds = target.seeds.filter((s) => !isJson(s.text));
    if (textSeeds.length === 0) continue;
    const format = target.name.replace('adapter ', '');
    test(`${target.name}: CRLF line endings, spaces at the ends of lines and extra blank lines at the end leave the parse unchanged`, () => {
      for (const seed of textSeeds) {
        const expected = parseInput(fileInput(seed.path, seed.text), format);
        for (const text of [seed.text.replace(/\r?\n/g, '\r\n'), seed.text.replace(/\n/g, '  \n'), seed.text.replace(/\n*$/, '\n\n\n')]) {
          assert.deepEqual(parseInput(fileInput(seed.path, text), format), expected, seed.path);
        }
      }
    });
  }
});

describe('adapters bound what one input costs', () => {
  const TEN_MB = 'x'.repeat(10 * 1024 * 1024);
  for (const target of targets) {
    const seed = target.seeds[0]!;
    test(`${target.name}: a 10 MB line, a 10 MB string value and 100,000 nested arrays end within ${PER_HUGE_INPUT_MS} ms each`, () => {
      const middle = seed.text.indexOf('\n', seed.text.length >> 1);
      const cases: [string, string][] = [
        ['a 10 MB line in the middle', `${seed.text.slice(0, middle + 1)}${TEN_MB}\n${seed.text.slice(middle + 1)}`],
        ['a 10 MB first line', `${TEN_MB}\n${seed.text}`],
        ['100,000 nested arrays', deepNesting(100_000)],
      ];
      const firstString = seed.text.indexOf('"');
      if (firstString >= 0) cases.push(['a 10 MB string value', `${seed.text.slice(0, firstString + 1)}${TEN_MB}${seed.text.slice(firstString + 1)}`]);
      for (const [what, text] of cases) {
        const why = judge(target, text, seed.path, PER_HUGE_INPUT_MS);
        assert.equal(why, null, `${target.name}, ${what}: ${why}`);
      }
    });
  }
});

test('an error that is not an InputError, or one naming another file, counts as a crash', () => {
  assert.equal(classifyError(new TypeError('x is undefined'), '/r/a.json').kind, 'crash');
  assert.equal(classifyError(new RangeError('Maximum call stack size exceeded'), '/r/a.json').kind, 'crash');
});
