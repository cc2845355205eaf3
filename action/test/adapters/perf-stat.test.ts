import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { perfStatAdapter as adapter } from '../../src/adapters/perf-stat.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { compileBusyLoop } from '../support/programs.js';
import { runTool } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { adapterContract, FIXTURES, parseFile, parseText } from './adapter-contract.js';
import { requireTool } from '../support/tools.js';

requireTool('perf', 'cc');

const noPmuText = readFileSync(join(FIXTURES, 'perf-stat/no-pmu.csv'), 'utf8');

function perfStat(args: string[], out: string): string {
  runTool('perf', ['stat', '-x,', '-o', out, ...args], { timeoutMs: 60_000 });
  return readFileSync(out, 'utf8');
}

describe('perf stat adapter on real perf stat -x, output', () => {
  const dir = tempDir();
  let busy: string;
  let plainText: string;
  let plain: BenchmarkResult;

  before(() => {
    busy = compileBusyLoop(dir);
    plainText = perfStat(['-e', 'task-clock,page-faults,instructions,cycles', '--', busy, '20000000'], join(dir, 'busy-stat.csv'));
    plain = parseFile(adapter, join(dir, 'busy-stat.csv'))[0]!;
  });

  test('auto-detection picks perf-stat', () => {
    assert.equal(chooseAdapter(fileInput(join(dir, 'busy-stat.csv'), plainText)).name, 'perf-stat');
  });

  test('task-clock in msec becomes seconds; page-faults is a count; the id is the file name', () => {
    assert.equal(plain.id, 'busy-stat');
    const clock = plain.metrics['task-clock']!;
    assert.equal(clock.unit, 's');
    assert.equal(clock.sourceUnit, 'msec');
    assert.equal(clock.direction, 'lower');
    assert.ok(clock.value! > 1e-3 && clock.value! < 10, `20M iterations took ${clock.value} s of CPU`);
    const faults = plain.metrics['page-faults']!;
    assert.equal(faults.unit, 'count');
    assert.ok(Number.isInteger(faults.value) && faults.value! >= 1);
  });

  test('instructions and cycles: counted (instructions exact, cycles not) or reported unavailable, never zero', () => {
    for (const event of ['instructions', 'cycles']) {
      const line = plainText.split('\n').find((l) => l.split(',')[2] === event)!;
      assert.ok(line, `perf wrote no ${event} line`);
      if (line.startsWith('<not supported>') || line.startsWith('<not counted>')) {
        // This VM has no PMU: the event is listed as unavailable, with perf's words.
        assert.equal(plain.metrics[event], undefined);
        assert.equal(plain.unavailable![event], line.split(',')[0]);
      } else {
        const m = plain.metrics[event]!;
        assert.ok(m.value! > 1e7, `${event}: ${m.value}`);
        assert.equal(m.exact, event === 'instructions' ? true : undefined);
      }
    }
  });

  test('-r 3: the variance column is skipped and the mean is one value', () => {
    const text = perfStat(['-r', '3', '-e', 'task-clock', '--', busy, '2000000'], join(dir, 'repeat.csv'));
    assert.match(text, /^[\d.]+,msec,task-clock,[\d.]+%,/m);
    const [r] = parseText(adapter, text, 'repeat.csv');
    assert.ok(r!.metrics['task-clock']!.value! > 0);
  });

  test('-I 100: each interval is one sample, in time order', () => {
    const text = perfStat(['-I', '100', '-e', 'task-clock', '--', busy, '300000000'], join(dir, 'interval.csv'));
    const lines = text.split('\n').filter((l) => /task-clock/.test(l) && !/<not/.test(l));
    const stamps = lines.map((l) => Number(l.split(',')[0]));
    assert.deepEqual(
      [...stamps].sort((a, b) => a - b),
      stamps,
    );
    const [r] = parseText(adapter, text, 'interval.csv');
    const samples = r!.metrics['task-clock']!.samples!;
    assert.deepEqual(
      samples,
      lines.map((l) => Number(l.split(',')[1]) * 1e-3),
    );
    assert.ok(samples.length >= 2, `a run of several 100 ms intervals gave ${samples.length} samples`);
    // Each sample is that interval's CPU time, not the running total: together
    // they add up to no more than the whole run took. (Per interval no bound
    // holds on a virtual machine: perf reads the counter after the timestamp,
    // sometimes hundreds of milliseconds later, so one interval can carry CPU
    // time from the next; CI saw 0.26 s of CPU in a 0.11 s interval.)
    const total = samples.reduce((a, b) => a + b, 0);
    assert.ok(
      samples.every((s) => s >= 0) && total <= stamps[stamps.length - 1]! + 0.05,
      `interval CPU times ${samples.join(', ')} add up to ${total} s in a ${stamps[stamps.length - 1]} s run`,
    );
  });
});

describe('perf stat adapter on the committed captures', () => {
  test('<not supported> events are unavailable, never zero', () => {
    const [r] = parseText(adapter, noPmuText, 'no-pmu.csv');
    assert.deepEqual(r!.unavailable, { instructions: '<not supported>', cycles: '<not supported>' });
    assert.deepEqual(Object.keys(r!.metrics).sort(), ['context-switches', 'page-faults', 'task-clock']);
  });

  test("-x';' output reads the same as -x,", () => {
    const [comma] = parseText(adapter, noPmuText, 'no-pmu.csv');
    const [semi] = parseText(adapter, noPmuText.replace(/,/g, ';'), 'no-pmu.csv');
    assert.deepEqual(semi, comma);
  });

  test('an interval that was not counted is left out of the samples', () => {
    const [r] = parseFile(adapter, join(FIXTURES, 'perf-stat/interval.csv'));
    assert.deepEqual(r!.metrics['page-faults']!.samples, [77, 0]);
  });

  test('user-space modifiers keep their name and the traits of the event', () => {
    const [r] = parseText(adapter, '123456789,,instructions:u,1000,100.00,,\n', 'u.csv');
    assert.equal(r!.metrics['instructions:u']!.exact, true);
  });

  adapterContract(adapter, 'perf-stat', [
    { name: 'truncated', text: noPmuText.slice(0, noPmuText.indexOf('<not supported>,,cycles') + 18), line: true },
    { name: 'corrupt', text: noPmuText.replace('1.15,msec', '1.1x5,msec'), line: true },
    { name: 'semicolon without events', text: 'a;b;c\n' },
  ]);
});
