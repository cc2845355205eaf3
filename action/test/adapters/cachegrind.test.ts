import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { cachegrindAdapter as adapter, estimatedCycles } from '../../src/adapters/cachegrind.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import { compileBusyLoop } from '../support/programs.js';
import { runTool } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { adapterContract, FIXTURES, fixturesOf, inputErrorOf, parseFile, parseText } from './adapter-contract.js';
import { requireTool } from '../support/tools.js';

requireTool('valgrind', 'cg_annotate', 'cc');

/** cg_annotate's PROGRAM TOTALS line, by event: its own sum of the cost lines, printed with thousands separators. */
function annotatedTotals(path: string): Record<string, number> {
  const out = runTool('cg_annotate', [path]).stdout;
  const events = /^Events recorded:\s+(.+)$/m.exec(out)![1]!.trim().split(/\s+/);
  const line = /^(.*)PROGRAM TOTALS$/m.exec(out)![1]!;
  // "738,743 (100.0%) 528 (100.0%) …": the counts, without the percentages.
  const counts = line
    .replace(/\([^)]*\)/g, ' ')
    .trim()
    .split(/\s+/)
    .map((c) => Number(c.replace(/,/g, '')));
  assert.equal(counts.length, events.length, line);
  return Object.fromEntries(events.map((e, i) => [e, counts[i]!]));
}

const busyText = readFileSync(join(FIXTURES, 'cachegrind/busy-cachesim.cachegrind.out'), 'utf8');

describe('cachegrind adapter on the committed captures', () => {
  for (const path of fixturesOf('cachegrind')) {
    test(`${basename(path)}: the values are cg_annotate's totals; estimated cycles follow the model`, () => {
      const totals = annotatedTotals(path);
      const [r] = parseFile(adapter, path);
      const m = r!.metrics;
      assert.equal(m.instructions!.value, totals['Ir']);
      if (totals['D1mr'] === undefined) {
        // --cache-sim=no: Ir is all there is, and nothing is made up.
        assert.deepEqual(Object.keys(m), ['instructions']);
        return;
      }
      const l1 = totals['I1mr']! + totals['D1mr']! + totals['D1mw']!;
      const ll = totals['ILmr']! + totals['DLmr']! + totals['DLmw']!;
      assert.equal(m.l1_misses!.value, l1);
      assert.equal(m.ll_misses!.value, ll);
      assert.equal(m.estimated_cycles!.value, totals['Ir']! + 10 * l1 + 100 * ll);
      assert.deepEqual(Object.keys(m).sort(), ['estimated_cycles', 'instructions', 'l1_misses', 'll_misses']);
    });
  }

  test('the busy loop: id from cmd:, numbers as the summary line has them; every metric a lower-is-better exact count', () => {
    const [r] = parseText(adapter, busyText, 'busy.out');
    assert.equal(r!.id, './busy 100000');
    assert.match(busyText, /^summary: 738743 528 528 106882 172 172 101692 135 135$/m);
    const m = r!.metrics;
    assert.equal(m.instructions!.value, 738743);
    assert.equal(m.l1_misses!.value, 528 + 172 + 135);
    assert.equal(m.ll_misses!.value, 528 + 172 + 135);
    assert.equal(m.estimated_cycles!.value, 738743 + 10 * 835 + 100 * 835);
    for (const metric of Object.values(m)) {
      assert.equal(metric.unit, 'count');
      assert.equal(metric.direction, 'lower');
      assert.equal(metric.exact, true);
    }
    assert.equal(m.instructions!.sourceUnit, 'Ir');
  });

  test('the stride program misses L1 on every touched line and LL on the first pass only; branch events are ignored', () => {
    const [r] = parseFile(adapter, join(FIXTURES, 'cachegrind/stride-branchsim.cachegrind.out'));
    // 4 MiB / 64 B = 65,536 lines; four passes miss the 32 KiB L1, the 8 MiB LL keeps them after the first.
    assert.ok(r!.metrics.l1_misses!.value! >= 4 * 65536 && r!.metrics.l1_misses!.value! < 4 * 65536 * 1.01);
    assert.ok(r!.metrics.ll_misses!.value! >= 65536 && r!.metrics.ll_misses!.value! < 65536 * 1.02);
    assert.equal(estimatedCycles(1, 2, 3), 1 + 20 + 300);
  });

  test('an id with a newline (valgrind writes arguments as they are) is read back whole', () => {
    const text = busyText.replace('cmd: ./busy 100000', 'cmd: sh -c ./busy 1\n./busy 2');
    assert.equal(parseText(adapter, text, 'nl.out')[0]!.id, 'sh -c ./busy 1\n./busy 2');
  });

  test('damage in the middle is caught by the summary check, naming the summary line', () => {
    // The first cost line's Ir made larger: every line still looks right, only the sum disagrees.
    const lines = busyText.split('\n');
    const first = lines.findIndex((l) => /^\d+ \d+/.test(l));
    lines[first] = lines[first]!.replace(/^(\d+) (\d+)/, (_, n: string, ir: string) => `${n} ${Number(ir) + 1}`);
    const error = inputErrorOf(() => parseText(adapter, lines.join('\n'), '/work/damaged.out'));
    assert.equal(error.line, lines.findIndex((l) => l.startsWith('summary:')) + 1);
    assert.match(error.message, /^\/work\/damaged\.out:\d+: .*do not match the sum of the cost lines \(Ir 738743 against 738744\)/);
  });

  adapterContract(adapter, 'cachegrind', [
    { name: 'truncated before the summary', text: busyText.slice(0, busyText.indexOf('summary:')), line: true },
    { name: 'truncated inside the summary', text: busyText.slice(0, busyText.indexOf('summary:') + 20), line: true },
    { name: 'a corrupt summary count', text: busyText.replace(/^summary: 738743/m, 'summary: 7387x3'), line: true },
    { name: 'a garbage cost line', text: busyText.replace(/^fn=main$/m, 'fn=main\nnot a cost line'), line: true },
    { name: 'a cost line with too many counts', text: busyText.replace(/^fn=main\n/m, 'fn=main\n1 1 1 1 1 1 1 1 1 1 1\n'), line: true },
    { name: 'two runs appended', text: `${busyText}${busyText}`, line: true },
    { name: 'no Ir event', text: busyText.replace(/^events: Ir /m, 'events: '), line: true },
    { name: 'no events line', text: 'desc: I1 cache: 32768 B, 64 B, 8-way associative\ncmd: ./busy\n', line: true },
    { name: 'garbage', text: 'desc: x\ncmd: y\nevents: Ir\n\u0000\u0001 binary junk\n', line: true },
  ]);
});

describe('cachegrind adapter on real valgrind --tool=cachegrind output', () => {
  const dir = tempDir();
  let busy: string;
  before(() => {
    busy = compileBusyLoop(dir);
  });

  test('auto-detection picks cachegrind; the numbers are the summary line and cg_annotate agrees', () => {
    const out = join(dir, 'run.cachegrind');
    runTool('valgrind', ['-q', '--tool=cachegrind', '--cache-sim=yes', `--cachegrind-out-file=${out}`, busy, '20000'], { timeoutMs: 120_000 });
    const text = readFileSync(out, 'utf8');
    assert.equal(chooseAdapter(fileInput(out, text)).name, 'cachegrind');
    const [r] = parseText(adapter, text, out);
    assert.equal(r!.id, `${busy} 20000`);
    const summary = /^summary: (.+)$/m.exec(text)![1]!.trim().split(/\s+/).map(Number);
    const events = /^events: (.+)$/m.exec(text)![1]!.trim().split(/\s+/);
    const at = (name: string): number => summary[events.indexOf(name)]!;
    assert.equal(r!.metrics.instructions!.value, at('Ir'));
    assert.equal(r!.metrics.l1_misses!.value, at('I1mr') + at('D1mr') + at('D1mw'));
    assert.equal(r!.metrics.ll_misses!.value, at('ILmr') + at('DLmr') + at('DLmw'));
    assert.equal(r!.metrics.instructions!.value, annotatedTotals(out)['Ir']);
  });
});
