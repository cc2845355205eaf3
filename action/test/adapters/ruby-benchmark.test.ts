import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rubyBenchmarkAdapter as adapter } from '../../src/adapters/ruby-benchmark.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { adapterContract, byId, FIXTURES, inputErrorOf, parseFile, parseText } from './adapter-contract.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

requireTool('ruby');

const HARNESS_SRC = new URL('../support/harness-src/', import.meta.url).pathname;
const BENCHER = join(FIXTURES, 'ruby-benchmark/bencher-two.txt');

/** Runs `ruby ruby-bm.rb …` with stdout (and, when `merged`, stderr) into one file; returns its path. */
function runRuby(dir: string, name: string, args: string[], merged: boolean): string {
  const out = join(dir, name);
  const fd = openSync(out, 'w');
  try {
    const r = spawnSync('ruby', ['ruby-bm.rb', ...args], { cwd: HARNESS_SRC, stdio: ['ignore', fd, merged ? fd : 'ignore'], timeout: 60_000 });
    assert.equal(r.status, args.includes('raise') ? 1 : 0, `ruby ruby-bm.rb ${args.join(' ')}`);
  } finally {
    closeSync(fd);
  }
  return out;
}

/** The `real` column of the rows labelled `label`, in output order, read straight off the text. */
function realOf(text: string, label: string): number[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${label} `))
    .map((l) => Number(/\(\s*([\d.]+)\)$/.exec(l)![1]));
}

describe('Ruby Benchmark adapter on a real run (Ruby 3.1)', () => {
  const dir = tempDir('perf-gate-ruby-bm-');
  let okPath: string;
  let okText: string;
  let results: BenchmarkResult[];
  before(() => {
    okPath = runRuby(dir, 'bm.txt', [], false);
    okText = readFileSync(okPath, 'utf8');
    results = parseFile(adapter, okPath);
  });

  test('auto-detection picks ruby-benchmark', () => {
    assert.equal(chooseAdapter(fileInput(okPath, okText)).name, 'ruby-benchmark');
  });

  test('one benchmark per label; rehearsals and the >total/>avg rows are not runs', () => {
    assert.match(okText, /^Rehearsal -+$/m);
    assert.match(okText, /^>total: /m);
    assert.deepEqual(
      results.map((r) => r.id),
      ['sleep 20ms', 'sum 200k', 'sleep 5ms', 'sort 20k', 'for', 'times'],
    );
    assert.ok(results.every((r) => r.status === 'ok'));
  });

  test('real is time, user and system their own metrics, in seconds, lower is better', () => {
    const sleep = byId(results, 'sleep 20ms').metrics;
    assert.deepEqual(Object.keys(sleep).sort(), ['system_time', 'time', 'user_time']);
    for (const m of Object.values(sleep)) {
      assert.equal(m.unit, 's');
      assert.equal(m.direction, 'lower');
    }
    assert.equal(sleep.time!.value, realOf(okText, 'sleep 20ms:')[0]);
    assert.ok(sleep.time!.value! >= 0.02 && sleep.time!.value! < 2, 'a 20 ms sleep');
    assert.ok(sleep.user_time!.value! < sleep.time!.value! / 2, 'sleeping uses little CPU');
    const sum = byId(results, 'sum 200k').metrics;
    assert.ok(sum.user_time!.value! > 0, 'summing 200k numbers takes CPU time');
  });

  test('a label in several tables gives samples in output order, rehearsal rows left out', () => {
    const all = realOf(okText, 'sleep 5ms');
    assert.equal(all.length, 4, 'two rehearsal rows and two real ones');
    const time = byId(results, 'sleep 5ms').metrics.time!;
    assert.deepEqual(time.samples, [all[1], all[3]]);
    assert.ok(time.samples!.every((t) => t >= 0.005));
    assert.equal(byId(results, 'sort 20k').metrics.user_time!.samples!.length, 2);
  });

  test('a block that raises is a failed benchmark named by its label, with stderr or without', () => {
    const merged = parseFile(adapter, runRuby(dir, 'merged.txt', ['raise'], true));
    const times = byId(merged, 'times');
    assert.equal(times.status, 'failed');
    assert.match(times.error!.message, /raised: boom \(RuntimeError\)/);
    assert.equal(byId(merged, 'for').status, 'ok');
    const alone = parseFile(adapter, runRuby(dir, 'alone.txt', ['raise'], false));
    assert.equal(byId(alone, 'times').status, 'failed');
    assert.match(byId(alone, 'times').error!.message, /stops inside this benchmark/);
    assert.equal(alone.length, 6);
  });

  test("bencher's bmbm output (last line without a newline) reads the second table", () => {
    const bencher = parseFile(adapter, BENCHER);
    assert.deepEqual(
      bencher.map((r) => r.id),
      ['sort!', 'sort'],
    );
    assert.equal(byId(bencher, 'sort!').metrics.time!.value, 1.460465);
    assert.equal(byId(bencher, 'sort').metrics.time!.value, 1.448327);
    assert.equal(byId(bencher, 'sort').metrics.system_time!.value, 0.01);
  });

  test('rows without a label are named by their place; a table cut after its header names the header line', () => {
    const unlabelled =
      '      user     system      total        real\n  0.000010   0.000002   0.000012 (  0.000013)\n  0.000020   0.000001   0.000021 (  0.000024)\n';
    const r = parseText(adapter, unlabelled, 'unlabelled.txt');
    assert.deepEqual(
      r.map((b) => b.id),
      ['#1', '#2'],
    );
    assert.equal(byId(r, '#2').metrics.time!.value, 0.000024);
    const cut = `${okText.split('\n').slice(0, 3).join('\n')}\n              user     system      total        real\n`;
    const e = inputErrorOf(() => parseText(adapter, cut, 'cut.txt'));
    assert.equal(e.line, 4);
    assert.match(e.message, /has no rows/);
  });

  const bencherText = readFileSync(BENCHER, 'utf8');
  adapterContract(adapter, 'ruby-benchmark', [
    { name: 'truncated row', text: `${bencherText.slice(0, bencherText.lastIndexOf('1.460000'))}\n`, line: true },
    { name: 'rehearsal without total', text: bencherText.split('\n').slice(0, 3).join('\n') + '\n', line: true },
    { name: 'header without rows', text: '            user     system      total        real\n', line: true },
  ]);
});
