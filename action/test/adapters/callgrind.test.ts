import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { callgrindAdapter as adapter } from '../../src/adapters/callgrind.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import { compileBusyLoop } from '../support/programs.js';
import { runTool } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { adapterContract, FIXTURES, parseFile, parseText } from './adapter-contract.js';
import { requireTool } from '../support/tools.js';

requireTool('valgrind', 'cc');

const allocText = readFileSync(join(FIXTURES, 'callgrind/alloc.callgrind.out'), 'utf8');

describe('callgrind adapter on real valgrind --tool=callgrind output', () => {
  const dir = tempDir();
  let busy: string;
  const instructions = (iterations: number, name: string, extra: string[] = []): number => {
    const out = join(dir, name);
    runTool('valgrind', ['-q', '--tool=callgrind', `--callgrind-out-file=${out}`, ...extra, busy, String(iterations)], { timeoutMs: 60_000 });
    const [r] = parseFile(adapter, out);
    assert.equal(r!.id, `${busy} ${iterations}`);
    return r!.metrics.instructions!.value!;
  };

  before(() => {
    busy = compileBusyLoop(dir);
  });

  test('auto-detection picks callgrind; instructions are an exact, lower-is-better count', () => {
    const out = join(dir, 'one.callgrind');
    runTool('valgrind', ['-q', '--tool=callgrind', `--callgrind-out-file=${out}`, busy, '1000'], { timeoutMs: 60_000 });
    const text = readFileSync(out, 'utf8');
    assert.equal(chooseAdapter(fileInput(out, text)).name, 'callgrind');
    const m = parseText(adapter, text, out)[0]!.metrics.instructions!;
    assert.equal(m.unit, 'count');
    assert.equal(m.exact, true);
    assert.equal(m.direction, 'lower');
    assert.equal(m.value, Number(/^totals: (\d+)/m.exec(text)![1]));
  });

  test('the same run twice gives the same count; more iterations give more, by the loop cost', () => {
    const a = instructions(100_000, 'a.callgrind');
    const b = instructions(100_000, 'b.callgrind');
    const c = instructions(200_000, 'c.callgrind');
    assert.equal(a, b, 'callgrind counts are deterministic');
    const perIteration = (c - a) / 100_000;
    assert.ok(perIteration >= 3 && perIteration <= 20, `${perIteration} instructions per loop iteration`);
  });

  test('with cache simulation Ir is still the instructions column of totals:', () => {
    const plain = instructions(50_000, 'plain.callgrind');
    const sim = instructions(50_000, 'sim.callgrind', ['--cache-sim=yes']);
    assert.equal(sim, plain);
  });
});

describe('callgrind adapter on the committed captures', () => {
  test('totals, not summary, with cache simulation', () => {
    const [r] = parseFile(adapter, join(FIXTURES, 'callgrind/alloc-cachesim.callgrind.out'));
    assert.equal(r!.metrics.instructions!.value, 541605);
  });

  adapterContract(adapter, 'callgrind', [
    { name: 'truncated', text: allocText.slice(0, allocText.indexOf('totals:')), line: true },
    { name: 'corrupt', text: allocText.replace(/^totals: \d+/m, 'totals: 54x605'), line: true },
    { name: 'no events', text: '# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\n' },
  ]);
});
