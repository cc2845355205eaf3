import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { readReport } from '../support/json-report.js';
import { runTool } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { requirePython } from '../support/tools.js';
import { FIXTURES } from './adapter-contract.js';

/**
 * The same pyperf files through `pyperf compare_to` and through perf-gate:
 * two real runs of examples/python-pyperf (an A/A pair: no change), and the
 * second run with every value × 1.10 (a known +10 %). Where the two differ,
 * the truth is known, and docs/formats-scripting-load-system.md explains why
 * (pyperf: a Student t-test on every value as if independent).
 */
const compare = (name: string): string => join(FIXTURES, 'pyperf', 'compare', name);

/** pyperf compare_to's verdict per benchmark: "slower"/"faster" when significant, "not significant" when it hides it. */
function pyperfVerdicts(before: string, after: string): Record<string, string> {
  const out = runTool('python3', ['-m', 'pyperf', 'compare_to', compare(before), compare(after)]).stdout;
  const verdicts: Record<string, string> = {};
  for (const m of out.matchAll(/^(\S+): Mean \+- std dev: .*: [\d.]+x (slower|faster)$/gm)) verdicts[m[1]!] = m[2]!;
  const hidden = /^Benchmark hidden because not significant \(\d+\): (.*)$/m.exec(out);
  for (const name of hidden?.[1]!.split(', ') ?? []) verdicts[name.trim()] = 'not significant';
  return verdicts;
}

describe('pyperf compare_to and perf-gate on the same pyperf files', () => {
  requirePython('pyperf');
  const dir = tempDir();
  mkdirSync(join(dir, 'budgets'));
  // A slowdown of more than 5 % matters: the +10 % is twice that.
  writeFileSync(join(dir, 'budgets', 'pyperf.yml'), 'version: 1\ndefaults:\n  regression: 5%\n');

  async function perfGate(before: string, after: string): Promise<Record<string, string>> {
    const json = join(dir, `${before}-${after}.json`);
    const run = await runCli(['compare', '--baseline', compare(before), '--current', compare(after), '--budgets', join(dir, 'budgets'), '--json', json], dir);
    assert.ok(run.status === 0 || run.status === 1, run.stdout + run.stderr);
    return Object.fromEntries(readReport(json).rows.map((r) => [r.benchmark, r.status]));
  }

  test('A/A: perf-gate finds no regression; pyperf calls count_words 1.08x slower (a false alarm), split not significant', async () => {
    assert.deepEqual(pyperfVerdicts('aa-1.json', 'aa-2.json'), { count_words: 'slower', split: 'not significant' });
    const gate = await perfGate('aa-1.json', 'aa-2.json');
    assert.deepEqual(Object.keys(gate).sort(), ['count_words', 'split']);
    for (const [benchmark, status] of Object.entries(gate)) assert.notEqual(status, 'regressed', benchmark);
  });

  test('+10 %: both find count_words slower; perf-gate also finds split, which pyperf calls not significant', async () => {
    assert.deepEqual(pyperfVerdicts('aa-2.json', 'plus-10-percent.json'), { count_words: 'slower', split: 'not significant' });
    assert.deepEqual(await perfGate('aa-2.json', 'plus-10-percent.json'), { count_words: 'regressed', split: 'regressed' });
  });
});
