import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { divanAdapter as adapter } from '../../src/adapters/divan.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import { adapterContract, byId, FIXTURES, parseFile, parseText } from './adapter-contract.js';

const fixture = (name: string): string => join(FIXTURES, 'divan', name);
const treeText = readFileSync(fixture('divan-0.1.21-args-types-counter-alloc.txt'), 'utf8');

describe('divan adapter on real divan 0.1.21 output (examples/rust-divan)', () => {
  const results = parseFile(adapter, fixture('divan-0.1.21-args-types-counter-alloc.txt'));

  test('auto-detection picks divan', () => {
    assert.equal(chooseAdapter(fileInput('bench.txt', treeText)).name, 'divan');
  });

  test('ids follow the tree: target, function, then args and generic types', () => {
    assert.deepEqual(
      results.map((r) => r.id),
      ['words/bytes/10', 'words/bytes/1000', 'words/collect', 'words/split_whitespace', 'words/sum/u32', 'words/sum/u64'],
    );
  });

  test("time is divan's printed median, in seconds; samples and iterations are params", () => {
    // The printed medians: 19.8 ns, 2.729 µs, 1.882 µs, 13.43 µs, 3.255 µs, 3.446 µs.
    const medians = {
      'words/bytes/10': 19.8e-9,
      'words/bytes/1000': 2.729e-6,
      'words/collect': 1.882e-6,
      'words/split_whitespace': 13.43e-6,
      'words/sum/u32': 3.255e-6,
      'words/sum/u64': 3.446e-6,
    };
    for (const [id, median] of Object.entries(medians)) {
      const time = byId(results, id).metrics.time!;
      assert.equal(time.value, median, id);
      assert.equal(time.unit, 's');
      assert.equal(time.direction, 'lower');
    }
    assert.deepEqual(byId(results, 'words/bytes/10').params, { samples: '20', iters: '2560' });
  });

  test('a BytesCount counter is bytes_per_second, higher is better, decimal prefixes', () => {
    const rate = byId(results, 'words/bytes/1000').metrics.bytes_per_second!;
    assert.equal(rate.value, 1.058e9);
    assert.equal(rate.unit, 'B/s');
    assert.equal(rate.direction, 'higher');
  });

  test("AllocProfiler's blocks are exact counts and bytes per iteration", () => {
    const m = byId(results, 'words/collect').metrics;
    assert.equal(m.allocs!.value, 1);
    assert.equal(m.allocs!.exact, true);
    assert.equal(m.alloc_bytes!.value, 64);
    assert.equal(m.max_alloc_bytes!.value, 2048);
    assert.equal(m.grows!.value, 5);
    assert.equal(m.grow_bytes!.value, 1984);
  });

  test('a benchmark that panicked is a failed row with the panic message; the rows before it stand', () => {
    const crashed = parseFile(adapter, fixture('divan-0.1.21-panic-stderr-merged.txt'));
    const failed = byId(crashed, 'words/panics');
    assert.equal(failed.status, 'failed');
    assert.match(failed.error!.message, /panicked: index out of bounds: the len is 0 but the index is 3/);
    assert.equal(byId(crashed, 'words/collect').status, 'ok');
    // Standard output alone ends at the name: still a failed row, saying where the message went.
    const stdoutOnly = treeText.replace('├─ split_whitespace', '├─ panics            \n├─ split_whitespace').split('├─ split_whitespace')[0]!;
    assert.match(byId(parseText(adapter, stdoutOnly, 'out.txt'), 'words/panics').error!.message, /2>&1/);
  });

  adapterContract(adapter, 'divan', [
    { name: 'corrupt', text: treeText.replace('2.729 µs', '2.729 parsecs'), line: true },
    { name: 'corrupt samples', text: treeText.replace('│ 20      │ 2560', '│ many    │ 2560'), line: true },
    { name: 'header only', text: treeText.slice(0, treeText.indexOf('├─')) },
  ]);
});
