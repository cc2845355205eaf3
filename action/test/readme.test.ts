import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseBudgets } from '../src/config/budgets.js';
import { parsePerfGateConfig } from '../src/config/perf-gate-config.js';
import { COMMANDS } from '../src/cli.js';
import { runCli } from './support/cli.js';
import { tempDir } from './support/temp.js';
import { requireTool } from './support/tools.js';

requireTool('cc', 'hyperfine');

/**
 * The README is a user's first contact: its examples must be true. Every YAML
 * block parses as what it claims to be, the command synopses match the real
 * flags, and the main job runs on the example project with both timers.
 */
const root = new URL('../../', import.meta.url).pathname;
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const yamlBlocks = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);

describe('README examples', () => {
  test('every budgets example parses', () => {
    const budgets = yamlBlocks.filter((y) => /^version: 1/m.test(y) && /^benchmarks:/m.test(y) && !/^suites:/m.test(y));
    assert.ok(budgets.length >= 1);
    for (const text of budgets) parseBudgets(text, 'README.md');
  });

  test('every perf-gate.yml example parses', () => {
    const configs = yamlBlocks.filter((y) => /^suites:/m.test(y));
    assert.ok(configs.length >= 1);
    for (const text of configs) parsePerfGateConfig(text, 'README.md', root);
  });

  test('the documented flags of compare and run are the real ones', () => {
    for (const name of ['compare', 'run']) {
      const synopsis = readme.slice(readme.indexOf(`perf-gate ${name} `));
      const documented = [...synopsis.slice(0, 600).matchAll(/--([a-z-]+)/g)].map((m) => m[1]!);
      for (const flag of new Set(documented)) assert.match(COMMANDS[name]!.usage, new RegExp(`--${flag}\\b`), `${name} --${flag}`);
    }
  });
});

describe('the main job on examples/cli-hyperfine', () => {
  for (const timer of ['hyperfine', 'builtin']) {
    test(`builds, times with ${timer}, compares with the committed baseline and writes the reports`, async () => {
      const dir = tempDir();
      // A copy, so the test never writes into the repository; time.sh finds the CLI relative to itself.
      cpSync(join(root, 'examples', 'cli-hyperfine'), join(dir, 'examples', 'cli-hyperfine'), { recursive: true });
      cpSync(join(root, 'action', 'dist'), join(dir, 'action', 'dist'), { recursive: true });
      const env = { ...process.env, PERF_GATE_TIMER: timer === 'builtin' ? 'builtin' : '' };
      const result = await runCli(['run', '--config', 'examples/cli-hyperfine/perf-gate.yml', '--out', 'out', '--json', 'out/report.json', '--markdown', 'out/report.md'], dir, env);
      assert.ok(result.status === 0 || result.status === 1, `a decided gate, not unusable input: ${result.stderr}`);
      const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as {
        rows: { benchmark: string; status: string; baseline: { n: number } | null; current: { n: number; value: number } | null }[];
      };
      const ids = report.rows.map((r) => r.benchmark).sort();
      assert.deepEqual(ids, ['sieve/./sieve 20000000', 'sieve/./sieve 5000000']);
      for (const row of report.rows) {
        assert.equal(row.current?.n, 20, `${row.benchmark}: 20 timed runs`);
        assert.ok(row.baseline && row.baseline.n === 20, 'compared with the committed baseline');
        assert.ok(['unchanged', 'improved', 'regressed', 'inconclusive'].includes(row.status), row.status);
        assert.ok(row.current!.value > 0.001 && row.current!.value < 2, `a sieve run takes milliseconds: ${row.current!.value}`);
      }
      assert.match(readFileSync(join(dir, 'out', 'report.md'), 'utf8'), /sieve\/\.\/sieve 5000000/);
      // hyperfine's JSON has per-run user and system times; perf-gate's own timer does not measure them.
      const harness = JSON.parse(readFileSync(join(dir, 'out', 'sieve', 'run.output'), 'utf8')) as { results: Record<string, unknown>[] };
      assert.equal('user' in harness.results[0]!, timer === 'hyperfine', 'the timer that ran is the one asked for');
    });
  }
});
