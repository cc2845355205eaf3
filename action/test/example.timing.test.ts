import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './support/temp.js';
import { requireTool } from './support/tools.js';

requireTool('git', 'cc', 'hyperfine');

const root = new URL('../../', import.meta.url).pathname;

interface JsonReport {
  verdict: string;
  rows: { benchmark: string; status: string; flags: string[] }[];
}

/**
 * The README's main job, `npm run example` (scripts/example), as a new user
 * runs it: a throwaway repository with a base and a slower head, gated A/B
 * (the slowdown must be caught, exit 1) and A/A (nothing flagged, exit 0),
 * on the machine it runs on, naming the timer. A *.timing test: it measures.
 */
test('npm run example catches the slower head, passes head against itself, and names the timer', () => {
  const out = tempDir('perf-gate-example-out-');
  const run = spawnSync('bash', [join(root, 'scripts', 'example'), out], { cwd: root, encoding: 'utf8', timeout: 25 * 60_000 });
  const log = `${run.stdout}\n${run.stderr}`.slice(-6000);
  assert.equal(run.status, 0, log);
  assert.match(run.stdout, /^timer: hyperfine \d/m);
  assert.match(run.stdout, /A\/B: the slower head was caught \(exit 1\), as it should be/);
  assert.match(run.stdout, /A\/A: nothing flagged \(exit 0\), as it should be/);
  const ab = JSON.parse(readFileSync(join(out, 'ab.json'), 'utf8')) as JsonReport;
  assert.equal(ab.verdict, 'fail');
  const caught = ab.rows.filter((r) => r.status === 'regressed');
  assert.ok(caught.length > 0, JSON.stringify(ab.rows));
  for (const row of caught) assert.ok(row.flags.includes('paired') && row.flags.includes('confirmed'), `${row.benchmark}: ${row.flags.join(',')}`);
  const aa = JSON.parse(readFileSync(join(out, 'aa.json'), 'utf8')) as JsonReport;
  assert.equal(aa.verdict, 'pass');
  assert.ok(
    aa.rows.every((r) => r.status !== 'regressed'),
    JSON.stringify(aa.rows),
  );
  for (const file of ['ab.md', 'aa.md']) assert.ok(existsSync(join(out, file)), file);
});
