import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openFolder } from '../support/history.js';
import { tempDir } from '../support/temp.js';

/**
 * Fifty `perf-gate` processes at once (the built CLI, as users run it), each
 * adding its run to one history folder and writing its report over one
 * shared report.json (docs/reliability.md): every run is in the history and
 * reads back, report.json is one writer's whole report, never a mix, and
 * no temporary file is left behind.
 */
const WRITERS = 50;
const cli = new URL('../../dist/cli.js', import.meta.url).pathname;

function run(cwd: string, argv: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...argv], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

function results(writer: number): string {
  const benchmarks = Array.from({ length: 20 }, (_, b) => ({
    id: `suite/bench-${b}`,
    status: 'ok',
    metrics: { time: { unit: 's', direction: 'lower', samples: [1, 2, 3, 4, 5].map((k) => 0.001 * (1 + b) * (1 + 0.001 * ((writer * 7 + k) % 11))) } },
  }));
  return JSON.stringify({
    schema: 'perf-gate/results@1',
    created: new Date(Date.UTC(2026, 10, 1, 0, writer)).toISOString(),
    testbed: { id: 'bed' },
    benchmarks,
  });
}

test(`${WRITERS} concurrent processes add to one history folder and write one report file: nothing lost, nothing mixed`, async () => {
  const dir = tempDir('pg-fifty-');
  const shared = join(dir, 'shared');
  mkdirSync(shared);
  for (let w = 0; w < WRITERS; w++) writeFileSync(join(dir, `results-${w}.json`), results(w));
  const commit = (w: number): string => (w + 1).toString(16).padStart(40, 'a');
  const exits = await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      const added = await run(dir, ['history', 'add', '--history', join(shared, 'history'), '--commit', commit(w), '--testbed', 'bed', `results-${w}.json`]);
      const compared = await run(dir, [
        'compare',
        '--current',
        `results-${w}.json`,
        '--json',
        join(shared, 'report.json'),
        '--markdown',
        join(shared, 'report.md'),
      ]);
      return { w, added, compared };
    }),
  );
  for (const e of exits) {
    assert.equal(e.added.status, 0, `writer ${e.w}, history add: ${e.added.stderr}`);
    assert.equal(e.compared.status, 0, `writer ${e.w}, compare: ${e.compared.stderr}`);
  }
  const store = openFolder(join(shared, 'history'));
  const entries = await store.list();
  assert.equal(entries.length, WRITERS, 'every run is in the history');
  assert.deepEqual(new Set(entries.map((e) => e.commit)), new Set(Array.from({ length: WRITERS }, (_, w) => commit(w))));
  const sets = await store.readMany(entries);
  assert.ok(
    sets.every((s) => s.benchmarks.length === 20),
    'every run reads back whole',
  );
  const report = JSON.parse(readFileSync(join(shared, 'report.json'), 'utf8')) as { rows: unknown[] };
  assert.equal(report.rows.length, 20, 'report.json is one whole report');
  assert.match(readFileSync(join(shared, 'report.md'), 'utf8'), /suite\/bench-19/);
  const temporary = (folder: string): string[] => readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((n) => n.includes('.tmp-'));
  assert.deepEqual(temporary(shared), [], 'no temporary file left');
});
