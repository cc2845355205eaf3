import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { massifAdapter as adapter } from '../../src/adapters/massif.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import { compileAlloc, compileC, runTool } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { adapterContract, FIXTURES, inputErrorOf, parseFile, parseText } from './adapter-contract.js';
import { requireTool } from '../support/tools.js';

requireTool('valgrind', 'gcc');

const allocText = readFileSync(join(FIXTURES, 'massif/alloc.massif.out'), 'utf8');

function massif(out: string, args: string[]): string {
  runTool('valgrind', ['-q', '--tool=massif', `--massif-out-file=${out}`, ...args], { timeoutMs: 60_000 });
  return readFileSync(out, 'utf8');
}

describe('massif adapter on real valgrind --tool=massif output', () => {
  const dir = tempDir();
  let alloc: string;

  before(() => {
    alloc = compileAlloc(dir);
  });

  test('memory_peak is heap + extra at the peak, in bytes, lower is better', () => {
    const out = join(dir, 'alloc.massif');
    const text = massif(out, [alloc]);
    assert.equal(chooseAdapter(fileInput(out, text)).name, 'massif');
    const [r] = parseFile(adapter, out);
    assert.equal(r!.id, alloc);
    const peak = r!.metrics.memory_peak!;
    assert.equal(peak.unit, 'B');
    assert.equal(peak.direction, 'lower');
    // 310,000 bytes are live at once, plus allocator overhead (and stdio's buffer).
    assert.ok(peak.value! >= 310_000 && peak.value! < 320_000, `peak ${peak.value} B`);
  });

  test('--stacks=yes adds the stack to the peak', () => {
    const heapOnly = parseText(adapter, massif(join(dir, 'heap.massif'), ['--time-unit=B', alloc]), 'heap.massif')[0]!.metrics.memory_peak!.value!;
    const withStacks = parseText(adapter, massif(join(dir, 'stacks.massif'), ['--stacks=yes', '--time-unit=B', alloc]), 'stacks.massif')[0]!.metrics
      .memory_peak!.value!;
    assert.ok(withStacks > heapOnly, `with stacks ${withStacks} B, heap only ${heapOnly} B`);
  });

  test('a program that allocates but never frees has no peak snapshot, and is read, not called truncated', () => {
    const leak = compileC(dir, 'leak', '#include <stdlib.h>\nint main(void) { volatile char *p = malloc(1000); p[0] = 1; return 0; }\n', '-O0');
    const text = massif(join(dir, 'leak.massif'), [leak]);
    assert.doesNotMatch(text, /heap_tree=peak/, 'massif takes its peak snapshot only when memory goes down');
    const [r] = parseText(adapter, text, 'leak.massif');
    assert.ok(r!.metrics.memory_peak!.value! >= 1000, `peak ${r!.metrics.memory_peak!.value} B`);
  });

  test('a program that never allocates has a peak of 0, not an error', () => {
    const text = massif(join(dir, 'true.massif'), ['/bin/true']);
    assert.doesNotMatch(text, /heap_tree=peak/);
    const [r] = parseText(adapter, text, 'true.massif');
    assert.equal(r!.metrics.memory_peak!.value, 0);
  });
});

describe('massif adapter on the committed captures', () => {
  test('the captured peak equals ms_print total at snapshot 33', () => {
    assert.equal(parseText(adapter, allocText, 'a')[0]!.metrics.memory_peak!.value, 310_000 + 88);
    assert.equal(parseFile(adapter, join(FIXTURES, 'massif/never-allocates.massif.out'))[0]!.metrics.memory_peak!.value, 0);
  });

  test('a file cut between snapshots, inside the separator, is truncated, not a peak of 0', () => {
    const cut = allocText.slice(0, 185); // ends with "#-----" before snapshot=1
    assert.equal(parseText(adapter, cut.slice(0, cut.lastIndexOf('#')), 'a')[0]!.metrics.memory_peak!.value, 0, 'snapshot 0 alone is a complete file');
    const error = inputErrorOf(() => parseText(adapter, cut, '/work/out/massif.out'));
    assert.equal(error.file, '/work/out/massif.out');
    assert.match(error.message, /truncated/);
    // The same with the whole separator line before snapshot=1.
    assert.match(inputErrorOf(() => parseText(adapter, allocText.slice(0, allocText.indexOf('snapshot=1\n')), 'a')).message, /truncated/);
  });

  test('a file cut at a snapshot boundary after memory went down, before the peak snapshot, is truncated', () => {
    // Snapshots 0-30 are complete; memory goes down from snapshot 22; the peak snapshot (33) is cut off.
    const cut = allocText.slice(0, allocText.lastIndexOf('#-----------', allocText.indexOf('snapshot=31\n')));
    assert.ok(cut.trimEnd().endsWith('heap_tree=empty'));
    const error = inputErrorOf(() => parseText(adapter, cut, '/work/out/massif.out'));
    assert.equal(error.file, '/work/out/massif.out');
    assert.match(error.message, /no heap_tree=peak snapshot.*truncated/);
    assert.equal(error.line, cut.split('\n').length);
  });

  const peakTree = allocText.indexOf('heap_tree=peak');
  adapterContract(adapter, 'massif', [
    { name: 'truncated in a heap tree', text: allocText.slice(0, allocText.indexOf('\n', peakTree + 20) + 1), line: true },
    { name: 'truncated in a snapshot', text: allocText.slice(0, allocText.indexOf('mem_heap_extra_B', peakTree - 120)), line: true },
    { name: 'corrupt', text: allocText.replace('mem_heap_B=310000', 'mem_heap_B=31o000'), line: true },
  ]);
});
