import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { straceAdapter as adapter } from '../../src/adapters/strace.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import type { BenchmarkResult, Metric } from '../../src/model/index.js';
import { compileAlloc, runTool } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { adapterContract, FIXTURES, parseFile, parseText } from './adapter-contract.js';
import { requireTool } from '../support/tools.js';

requireTool('strace', 'gcc');

const trueText = readFileSync(join(FIXTURES, 'strace/c-f-true.txt'), 'utf8');

function callsOf(metrics: Record<string, Metric>): number {
  return Object.entries(metrics)
    .filter(([k]) => /^syscalls\.[^.]+$/.test(k) && k !== 'syscalls.seconds' && k !== 'syscalls.errors')
    .reduce((sum, [, m]) => sum + m.value!, 0);
}

describe('strace adapter on real strace -c output', () => {
  const dir = tempDir();
  let alloc: string;
  let single: BenchmarkResult;
  let text: string;

  before(() => {
    alloc = compileAlloc(dir);
    runTool('strace', ['-c', '-o', join(dir, 'alloc.strace.txt'), alloc]);
    text = readFileSync(join(dir, 'alloc.strace.txt'), 'utf8');
    single = parseFile(adapter, join(dir, 'alloc.strace.txt'))[0]!;
  });

  test('auto-detection picks strace', () => {
    assert.equal(chooseAdapter(fileInput('alloc.strace.txt', text)).name, 'strace');
  });

  test('syscalls is the total, equal to the per-syscall counts added up; counts are exact', () => {
    const total = single.metrics.syscalls!;
    assert.equal(total.unit, 'count');
    assert.equal(total.exact, true);
    assert.equal(total.direction, 'lower');
    assert.equal(total.value, callsOf(single.metrics));
    assert.equal(single.metrics['syscalls.execve']!.value, 1);
    assert.ok(single.metrics['syscalls.write']!.value! >= 1, 'the program prints one line');
    assert.equal(single.metrics['syscalls.write']!.exact, true);
  });

  test('seconds per syscall are noisy seconds, not exact', () => {
    const s = single.metrics['syscalls.seconds']!;
    assert.equal(s.unit, 's');
    assert.equal(s.exact, undefined);
    assert.ok(s.value! >= 0 && s.value! < 1);
    assert.equal(single.metrics['syscalls.execve.seconds']!.unit, 's');
  });

  test('-f follows children: two runs of the program make twice its writes', () => {
    runTool('strace', ['-f', '-c', '-o', join(dir, 'twice.txt'), 'sh', '-c', `${alloc}; ${alloc}`]);
    const [twice] = parseFile(adapter, join(dir, 'twice.txt'));
    assert.equal(twice!.metrics['syscalls.write']!.value, 2 * single.metrics['syscalls.write']!.value!);
    assert.ok(twice!.metrics['syscalls.execve']!.value! >= 2);
  });

  test('-U picks and orders columns; the table is read by header names', () => {
    runTool('strace', ['-c', '-U', 'name,calls,errors,time', '-o', join(dir, 'columns.txt'), alloc]);
    const [r] = parseFile(adapter, join(dir, 'columns.txt'));
    assert.equal(r!.metrics.syscalls!.value, single.metrics.syscalls!.value);
    assert.equal(r!.metrics['syscalls.execve']!.value, 1);
  });
});

describe('strace adapter on the committed captures', () => {
  test('blank errors are zero; failing syscalls get an errors metric', () => {
    const [r] = parseText(adapter, trueText, 'true.txt');
    assert.equal(r!.metrics.syscalls!.value, 29);
    assert.equal(r!.metrics['syscalls.errors']!.value, 1);
    assert.equal(r!.metrics['syscalls.access.errors']!.value, 1);
    assert.equal(r!.metrics['syscalls.mmap.errors'], undefined);
    assert.equal(r!.metrics['syscalls.mmap']!.value, 8);
    assert.equal(r!.metrics['syscalls.mmap.seconds']!.value, 0.000077);
  });

  test('the -U capture with longest/shortest columns', () => {
    const [r] = parseFile(adapter, join(FIXTURES, 'strace/c-U-columns.txt'));
    assert.equal(r!.metrics.syscalls!.value, 148);
    assert.equal(r!.metrics['syscalls.openat.errors']!.value, 19);
    assert.equal(r!.metrics.syscalls!.value, callsOf(r!.metrics));
  });

  adapterContract(adapter, 'strace', [
    { name: 'truncated', text: trueText.slice(0, trueText.indexOf('execve')), line: true },
    { name: 'corrupt', text: trueText.replace(/( +)8( +mmap)/, '$1x$2'), line: true },
    { name: 'header only', text: trueText.split('\n').slice(0, 2).join('\n') + '\n', line: true },
  ]);
});
