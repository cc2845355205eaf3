import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { iaiAdapter as adapter } from '../../src/adapters/iai.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { runHarness } from '../support/compiled-harnesses.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';
import { adapterContract, byId, FIXTURES, inputErrorOf, parseFile, parseText } from './adapter-contract.js';

const DIR = join(FIXTURES, 'iai');
const ALL_SIX = ['instructions', 'l1_hits', 'll_hits', 'ram_hits', 'total_read_write', 'estimated_cycles'];

/** The counts a block prints for one label, in file order (the value before any "|old"). */
function printed(text: string, label: string): number[] {
  return [...text.matchAll(new RegExp(`^\\s+${label.replace('+', '\\+')}:\\s+(\\d+)`, 'gm'))].map((m) => Number(m[1]));
}

function writeCrate(dir: string): void {
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, 'benches'), { recursive: true });
  writeFileSync(
    join(dir, 'Cargo.toml'),
    '[package]\nname = "iai-sum"\nversion = "0.1.0"\nedition = "2021"\n\n[dev-dependencies]\niai = "=0.1.1"\n\n[[bench]]\nname = "iai_sum"\nharness = false\n',
  );
  writeFileSync(join(dir, 'src/lib.rs'), '');
  writeFileSync(join(dir, 'benches/iai_sum.rs'), readFileSync(new URL('../support/harness-src/iai-benches.rs', import.meta.url), 'utf8'));
}

describe('iai adapter on a real iai 0.1.1 cargo bench run (cachegrind)', () => {
  requireTool('cargo', 'valgrind');
  const dir = tempDir('perf-gate-iai-');
  let first: string;
  let second: string;
  let results: BenchmarkResult[];

  before(() => {
    writeCrate(dir);
    // scripts/install/40-rust.sh fetches iai 0.1.1 into cargo's cache, so this builds offline.
    const env = { CARGO_TARGET_DIR: join(dir, 'target') };
    first = runHarness('cargo', ['bench', '--offline', '--quiet', '--bench', 'iai_sum'], { cwd: dir, env, timeoutMs: 180_000 }).stdout;
    // A second run compares with the first: the "(No change)" / "(+x%)" variant.
    second = runHarness('cargo', ['bench', '--offline', '--quiet', '--bench', 'iai_sum'], { cwd: dir, env, timeoutMs: 120_000 }).stdout;
    results = parseText(adapter, first, join(dir, 'iai.txt'));
  });

  test('auto-detection picks iai for both runs', () => {
    assert.equal(chooseAdapter(fileInput('iai.txt', first)).name, 'iai');
    assert.equal(chooseAdapter(fileInput('iai.txt', second)).name, 'iai');
  });

  test("each function is a benchmark with iai's five counts, exact and lower-is-better, as printed", () => {
    assert.deepEqual(
      results.map((r) => r.id),
      ['iai_sum_1000', 'iai_sum_2000'],
    );
    const columns: [string, string][] = [
      ['instructions', 'Instructions'],
      ['l1_hits', 'L1 Accesses'],
      ['ll_hits', 'L2 Accesses'],
      ['ram_hits', 'RAM Accesses'],
      ['estimated_cycles', 'Estimated Cycles'],
    ];
    for (const [metric, label] of columns) {
      assert.deepEqual(
        results.map((r) => r.metrics[metric]!.value),
        printed(first, label),
        metric,
      );
      for (const r of results) {
        const m = r.metrics[metric]!;
        assert.equal(m.unit, 'count');
        assert.equal(m.direction, 'lower');
        assert.equal(m.exact, true);
        assert.equal(m.samples, undefined);
      }
    }
    assert.equal(results[0]!.metrics.total_read_write, undefined, 'iai prints no total read+write');
  });

  test('1000 more loop iterations cost a few instructions each', () => {
    const [a, b] = results.map((r) => r.metrics.instructions!.value!);
    const perIteration = (b! - a!) / 1000;
    assert.ok(perIteration >= 2 && perIteration <= 20, `${perIteration} instructions per iteration`);
  });

  test('the rerun prints changes against the first run and reads the same counts', () => {
    assert.match(second, /\((?:No change|[+-]\d)/);
    const again = parseText(adapter, second, join(dir, 'iai-2.txt'));
    assert.deepEqual(
      again.map((r) => r.metrics.instructions!.value),
      results.map((r) => r.metrics.instructions!.value),
    );
  });
});

describe('iai adapter on committed captures', () => {
  test('iai with changes: the value before the bracket, accesses as hits', () => {
    const results = parseFile(adapter, join(DIR, 'iai-change.txt'));
    assert.deepEqual(
      results.map((r) => r.id),
      ['iai_benchmark_short', 'iai_benchmark_long'],
    );
    const long = byId(results, 'iai_benchmark_long');
    assert.deepEqual(Object.fromEntries(Object.entries(long.metrics).map(([k, m]) => [k, m.value])), {
      instructions: 18454953,
      l1_hits: 23447195,
      ll_hits: 6,
      ram_hits: 2,
      estimated_cycles: 23447295,
    });
  });

  test('iai "(  +inf%)" after a count that was 0 is read', () => {
    const results = parseFile(adapter, join(DIR, 'iai-0.1.1-rerun.txt'));
    assert.deepEqual(
      results.map((r) => r.metrics.ll_hits!.value),
      [1, 1],
    );
    assert.deepEqual(
      results.map((r) => r.metrics.instructions!.value),
      [381, 45006],
    );
  });

  test('iai-callgrind with comparisons "new|old (+x%) [+yx]": only the new value; the trailer is ignored', () => {
    const results = parseFile(adapter, join(DIR, 'iai-callgrind-with-summary-and-regressions.txt'));
    assert.deepEqual(
      results.map((r) => r.id),
      ['rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci short:10', 'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30'],
    );
    const short = results[0]!;
    assert.deepEqual(Object.keys(short.metrics), ALL_SIX);
    assert.deepEqual(
      ALL_SIX.map((k) => short.metrics[k]!.value),
      [1734, 2359, 0, 3, 2362, 2464],
    );
    for (const m of Object.values(short.metrics)) assert.equal(m.exact, true);
  });

  test('a DHAT section before CALLGRIND is left out; the callgrind counts are read', () => {
    const results = parseFile(adapter, join(DIR, 'iai-callgrind-dhat-then-callgrind.txt'));
    assert.equal(results.length, 2);
    assert.deepEqual(Object.keys(results[1]!.metrics), ALL_SIX);
    assert.equal(results[1]!.metrics.instructions!.value, 26214734);
    assert.equal(results[1]!.metrics.estimated_cycles!.value, 35638724);
  });

  test('gungraun "LL Hits" in any order, only the counts printed; trailing text ignored', () => {
    const results = parseFile(adapter, join(DIR, 'gungraun-callgrind-ll-hits.txt'));
    assert.deepEqual(
      results.map((r) => [r.id, r.metrics.instructions!.value, r.metrics.ll_hits!.value, Object.keys(r.metrics).length]),
      [
        ['rust_iai_callgrind::custom_format::callgrind_format ll_hits', 10, 20, 2],
        ['rust_iai_callgrind::custom_format::callgrind_format ll_hits_mixed', 1, 2, 2],
      ],
    );
  });

  test('a name spread over lines is joined with spaces', () => {
    const results = parseFile(adapter, join(DIR, 'iai-callgrind-name-on-multiple-lines.txt'));
    assert.deepEqual(
      results.map((r) => r.id),
      [
        'rust_iai_callgrind::bench::multiple_lines id:string with two lines',
        'rust_iai_callgrind::bench::multiple_lines id:string with multiple lines and one more',
      ],
    );
    assert.equal(results[1]!.metrics.estimated_cycles!.value, 12);
  });

  test('ANSI colours are stripped', () => {
    const coloured = readFileSync(join(DIR, 'iai-callgrind-with-summary-and-regressions.txt'), 'utf8')
      .replace(/^(rust\S+ \S+)$/gm, '\u001b[32m$1\u001b[0m')
      .replace(/(\d+)\|(\d+)/g, '\u001b[1m$1\u001b[0m|$2');
    assert.ok(coloured.includes('\u001b[1m1734\u001b[0m|1650'));
    const results = parseText(adapter, coloured, 'coloured.txt');
    assert.equal(results[0]!.id, 'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci short:10');
    assert.equal(results[0]!.metrics.instructions!.value, 1734);
  });
});

describe('iai adapter on broken output', () => {
  const text = readFileSync(join(DIR, 'iai-callgrind-with-summary-and-regressions.txt'), 'utf8');
  const lines = text.split('\n');
  const cutInBlock = `${lines.slice(0, lines.findIndex((l) => l.includes('L2 Hits:') && l.includes('0|0')) + 8).join('\n')}\n`;

  test('a last block with fewer counts than the one before is truncated, at the last line', () => {
    const error = inputErrorOf(() => parseText(adapter, cutInBlock, '/r/cut.txt'));
    assert.match(error.message, /truncated/);
    assert.equal(error.line, cutInBlock.split('\n').length - 1);
  });

  test('a name after a block with nothing after it is truncated, at the name', () => {
    const cut = `${lines.slice(0, 13).join('\n')}\n`;
    assert.match(lines[12]!, /long:30$/);
    const error = inputErrorOf(() => parseText(adapter, cut, '/r/name.txt'));
    assert.match(error.message, /without its counts/);
    assert.equal(error.line, 13);
  });

  test('a count that is not a whole number names its line', () => {
    const error = inputErrorOf(() => parseText(adapter, text.replace('35638619|34367375', '3563x619|34367375'), '/r/bad.txt'));
    assert.equal(error.line, 15);
    assert.match(error.message, /L1 Hits/);
  });

  test('the same name twice is an error naming both lines', () => {
    const twice = `${lines.slice(5, 12).join('\n')}\n${lines.slice(5, 12).join('\n')}\n`;
    const error = inputErrorOf(() => parseText(adapter, twice, '/r/twice.txt'));
    assert.match(error.message, /appears twice \(first at line 1\)/);
    assert.equal(error.line, 8);
  });

  adapterContract(adapter, 'iai', [
    { name: 'cut mid line', text: text.slice(0, text.indexOf('35638622|') + 4), line: true },
    { name: 'cut inside a block', text: cutInBlock, line: true },
    { name: 'no counts', text: 'running 0 tests\n\ntest result: ok. 0 passed; 0 failed\n\n', line: true },
    { name: 'counts without a name', text: '  Instructions:   1734|N/A   (*********)\n', line: true },
  ]);
});
