import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

/** A hyperfine export of one command, as `hyperfine --export-json` writes it. */
function hyperfine(command: string, times: number[]): string {
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return JSON.stringify(
    {
      results: [
        {
          command,
          mean,
          stddev: 0.0001,
          median: mean,
          user: 0,
          system: 0,
          min: Math.min(...times),
          max: Math.max(...times),
          times,
          exit_codes: times.map(() => 0),
        },
      ],
    },
    null,
    2,
  );
}

const base = Array.from({ length: 10 }, (_, i) => 0.01 * (1 + 0.001 * i));
const slow = base.map((t) => t * 2);

test('the README compare example (commands named after themselves) is exit 2, not a green 2× slowdown', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'old.json'), hyperfine('./app-old input', base));
  writeFileSync(join(dir, 'new.json'), hyperfine('./app-new input', slow));
  const result = await runCli(['compare', '--baseline', 'old.json', '--current', 'new.json'], dir);
  assert.equal(result.status, 2, result.stdout + result.stderr);
  assert.doesNotMatch(result.stdout, /PASS/);
  assert.match(result.stderr, /old\.json/);
  assert.match(result.stderr, /new\.json/);
  assert.match(result.stderr, /app-old input/);
  assert.match(result.stderr, /app-new input/);
  assert.match(result.stderr, /hyperfine -n NAME, perf-gate time or count --name NAME/);
});

test('the same runs named alike with -n are compared and the 2× slowdown fails', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'old.json'), hyperfine('app', base));
  writeFileSync(join(dir, 'new.json'), hyperfine('app', slow));
  const result = await runCli(['compare', '--baseline', 'old.json', '--current', 'new.json'], dir);
  assert.equal(result.status, 1, result.stdout + result.stderr);
});

test('hardening 3.13: two vegeta reports of one benchmark: --name gives them one id; without it the advice names --name', async () => {
  const dir = tempDir('perf-gate-compare-name-');
  const report = readFileSync(new URL('../fixtures/vegeta/vegeta-12.13-ok.json', import.meta.url), 'utf8');
  writeFileSync(join(dir, 'vegeta-main.json'), report);
  writeFileSync(join(dir, 'vegeta-pr.json'), report);
  const unnamed = await runCli(['compare', '--baseline', 'vegeta-main.json', '--current', 'vegeta-pr.json'], dir);
  assert.equal(unnamed.status, 2, unnamed.stdout);
  assert.match(unnamed.stderr, /"vegeta-main".*"vegeta-pr".*give both sides one name with --name NAME/s);
  const named = await runCli(['compare', '--baseline', 'vegeta-main.json', '--current', 'vegeta-pr.json', '--name', 'api', '--json', 'r.json'], dir);
  assert.equal(named.status, 0, named.stderr);
  const rows = (JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as { rows: { benchmark: string; status: string }[] }).rows;
  assert.ok(rows.length > 3 && rows.every((r) => r.benchmark === 'api' && r.status !== 'new'), JSON.stringify(rows.slice(0, 3)));
});
