import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchmarkIpsAdapter as adapter } from '../../src/adapters/benchmark-ips.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { adapterContract, byId, FIXTURES, inputErrorOf, parseFile, parseText } from './adapter-contract.js';
import { factorBeyondSpread, gateRow } from '../support/compiled-harnesses.js';
import { tempDir } from '../support/temp.js';
import { requireFile, requireTool } from '../support/tools.js';

requireTool('ruby');
requireFile('/usr/lib/ruby/vendor_ruby/benchmark/ips.rb', 'benchmark-ips (ruby-benchmark-ips)');

const HARNESS_SRC = new URL('../support/harness-src/', import.meta.url).pathname;
const LONG = 'a label longer than twenty characters';

/** Runs `ruby ruby-ips.rb …` with stdout (and, when `merged`, stderr) into one file; returns its path. */
function runIps(dir: string, name: string, args: string[], merged: boolean): string {
  const out = join(dir, name);
  const fd = openSync(out, 'w');
  try {
    const r = spawnSync('ruby', ['ruby-ips.rb', ...args], { cwd: HARNESS_SRC, stdio: ['ignore', fd, merged ? fd : 'ignore'], timeout: 60_000 });
    assert.equal(r.status, args.includes('raise') ? 1 : 0, `ruby ruby-ips.rb ${args.join(' ')}`);
  } finally {
    closeSync(fd);
  }
  return out;
}

interface IpsJson {
  name: string;
  ips: number;
  stddev: number;
  iterations: number;
}

describe('benchmark-ips adapter on a real run (Ruby 3.1, benchmark-ips 2.7.2)', () => {
  const dir = tempDir('perf-gate-ips-');
  const jsonPath = join(dir, 'ips.json');
  let textPath: string;
  let text: string;
  let json: IpsJson[];
  let results: BenchmarkResult[];
  before(() => {
    textPath = runIps(dir, 'ips.txt', [jsonPath], false);
    text = readFileSync(textPath, 'utf8');
    json = JSON.parse(readFileSync(jsonPath, 'utf8')) as IpsJson[];
    results = parseFile(adapter, textPath);
  });

  test('auto-detection picks benchmark-ips for the report and the JSON', () => {
    assert.equal(chooseAdapter(fileInput(textPath, text)).name, 'benchmark-ips');
    assert.equal(chooseAdapter(fileInput(jsonPath, readFileSync(jsonPath, 'utf8'))).name, 'benchmark-ips');
  });

  test('one benchmark per report, the long label read from its own line, the Comparison block ignored', () => {
    assert.match(text, /^Comparison:$/m);
    assert.match(text, new RegExp(`^${LONG}$`, 'm'), 'the long label stands alone');
    assert.deepEqual(
      results.map((r) => r.id),
      ['addition', 'sleep 10ms', LONG],
    );
  });

  test('i/s with its k/M scale is throughput (1/s, higher is better), matching the JSON within the printed precision', () => {
    for (const entry of json) {
      const m = byId(results, entry.name).metrics;
      assert.deepEqual(Object.keys(m), ['throughput']);
      assert.equal(m.throughput!.unit, '1/s');
      assert.equal(m.throughput!.direction, 'higher');
      assert.equal(m.throughput!.sourceUnit, 'i/s');
      // "%10.3f" of the scaled value: four significant digits at least.
      assert.ok(Math.abs(m.throughput!.value! / entry.ips - 1) < 5e-4, `${entry.name}: ${m.throughput!.value} vs ${entry.ips}`);
    }
    const sleep = byId(results, 'sleep 10ms').metrics.throughput!.value!;
    assert.ok(sleep > 5 && sleep <= 100, `sleeping 10 ms allows at most 100 i/s, read ${sleep}`);
    assert.ok(byId(results, 'addition').metrics.throughput!.value! > 1e5, 'an addition runs over 100k times a second');
  });

  test('the x.json! file gives the unrounded ips', () => {
    const fromJson = parseFile(adapter, jsonPath);
    assert.deepEqual(
      fromJson.map((r) => r.id),
      json.map((e) => e.name),
    );
    fromJson.forEach((r, i) => assert.equal(r.metrics.throughput!.value, json[i]!.ips));
  });

  test('a rise in i/s is an improvement through the real gate', () => {
    const base = byId(results, 'addition');
    const factor = factorBeyondSpread([base.metrics.throughput!.value!]);
    const faster: BenchmarkResult = { ...base, metrics: { throughput: { ...base.metrics.throughput!, value: base.metrics.throughput!.value! * factor } } };
    assert.equal(gateRow(base, faster, 'throughput').status, 'improved');
  });

  test('a block that raises is a failed benchmark; those warmed up before it were never measured', () => {
    for (const merged of [true, false]) {
      const failed = parseFile(adapter, runIps(dir, `raise-${String(merged)}.txt`, ['raise'], merged));
      assert.deepEqual(failed.map((r) => r.id).sort(), ['a label longer than twenty characters', 'addition', 'raises', 'sleep 10ms']);
      assert.ok(failed.every((r) => r.status === 'failed'));
      assert.match(byId(failed, 'raises').error!.message, merged ? /raised: boom \(RuntimeError\)/ : /stops inside this benchmark/);
      assert.match(byId(failed, 'addition').error!.message, /not measured: the run stopped at "raises"/);
    }
  });

  test('newer versions: the Ruby description line, "(… ns/i)", no total time, :raw numbers, B scale', () => {
    const newer = [
      'ruby 3.3.0 (2023-12-25 revision 5124f9ac75) +YJIT [x86_64-linux]',
      'Warming up --------------------------------------',
      '            addition     2.986M i/100ms',
      '               sleep    10.000 i/100ms',
      'Calculating -------------------------------------',
      '            addition     29.862M (± 1.2%) i/s   (33.49 ns/i) -    149.321M',
      '               sleep     99.123 (± 0.5%) i/s   (10.09 ms/i) -    500.000 ',
      '                 nop      1.204B (± 3.1%) i/s    (0.83 ns/i) -      6.020B in   5.000123s',
      '                 raw  1234567.8 (±2.0%) i/s -    6170000',
      '',
    ].join('\n');
    const r = parseText(adapter, newer, 'newer.txt');
    assert.deepEqual(
      r.map((b) => b.id),
      ['addition', 'sleep', 'nop', 'raw'],
    );
    assert.equal(byId(r, 'addition').metrics.throughput!.value, 29.862e6);
    assert.ok(Math.abs(byId(r, 'sleep').metrics.throughput!.value! - 99.123) < 1e-9);
    assert.equal(byId(r, 'nop').metrics.throughput!.value, 1.204e9);
    assert.equal(byId(r, 'raw').metrics.throughput!.value, 1234567.8);
  });

  test('a label reported again (Benchmark.ips in a loop) gives samples in order', () => {
    const twice = `${text}${text}`;
    const t = byId(parseText(adapter, twice, 'twice.txt'), 'addition').metrics.throughput!;
    const once = byId(results, 'addition').metrics.throughput!.value!;
    assert.deepEqual(t.samples, [once, once]);
  });

  test('a warmed-up label without a result row is output cut short', () => {
    const cut = text.slice(0, text.indexOf('          sleep 10ms', text.indexOf('Calculating')));
    const e = inputErrorOf(() => parseText(adapter, `${cut}\n`, 'cut.txt'));
    assert.match(e.message, /"sleep 10ms" was warmed up but has no result row/);
  });

  const fixture = readFileSync(join(FIXTURES, 'benchmark-ips/ips-2.7.2-compare.txt'), 'utf8');
  const row = fixture.split('\n').find((l) => l.includes('i/s -'))!;
  adapterContract(adapter, 'benchmark-ips', [
    { name: 'truncated row', text: `${fixture.slice(0, fixture.indexOf(row) + row.indexOf('i/s') + 5)}\n`, line: true },
    { name: 'no result lines', text: 'Calculating -------------------------------------\n\n' },
    { name: 'json without ips', text: '[{"name": "a", "cycles": 3, "ips": "fast"}]', line: true },
  ]);
});
