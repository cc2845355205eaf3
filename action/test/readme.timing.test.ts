import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseBudgets } from '../src/config/budgets.js';
import { parsePerfGateConfig } from '../src/config/perf-gate-config.js';
import { COMMANDS } from '../src/cli.js';
import { runCli } from './support/cli.js';
import { tempDir } from './support/temp.js';
import { commandsOf, runDocumentedScript, splitShownOutput, taggedBlocks, terminalOutputDifferences } from './support/doc-examples.js';
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
      const result = await runCli(
        ['run', '--config', 'examples/cli-hyperfine/perf-gate.yml', '--out', 'out', '--json', 'out/report.json', '--markdown', 'out/report.md'],
        dir,
        env,
      );
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

/**
 * Every example that shows a command and what it prints is run by a test.
 * Scripts marked `<!-- tested: NAME -->` in README.md or docs/*.md run exactly
 * as written (support/doc-examples.ts says how, and what of the printed
 * output is compared); blocks marked `<!-- output: NAME -->` are what they
 * print. The README's error examples (`readme-errors`) show no command: the
 * test writes the inputs they describe and compares every line.
 */
const pagesWithExamples = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
const tagged = pagesWithExamples.flatMap((page) => taggedBlocks(readFileSync(join(root, page), 'utf8')).map((b) => ({ ...b, page })));

/** Output blocks whose input the test makes itself, because the page shows no command. */
const MADE_BY_THE_TEST = new Set(['readme-errors']);

describe('documented examples run as written', () => {
  test("every output block belongs to a tested script, and every command it shows is one of the script's", () => {
    const scripts = new Map(tagged.filter((b) => b.kind === 'tested').map((b) => [b.name, b]));
    assert.ok(scripts.has('readme-compare'), "the README's compare example is tested");
    for (const out of tagged.filter((b) => b.kind === 'output')) {
      if (MADE_BY_THE_TEST.has(out.name)) continue;
      const script = scripts.get(out.name);
      assert.ok(script, `${out.page}:${out.line}: <!-- output: ${out.name} --> has no <!-- tested: ${out.name} --> script`);
      const commands = commandsOf(script.body);
      for (const shown of splitShownOutput(out.body).commands)
        assert.ok(commands.includes(shown), `${out.page}:${out.line}: "$ ${shown}" is not a command of ${out.name}: ${commands.join(' | ')}`);
    }
  });

  for (const script of tagged.filter((b) => b.kind === 'tested')) {
    const outputs = tagged.filter((b) => b.kind === 'output' && b.name === script.name);
    test(`${script.page}: ${script.name} prints what the page shows (${outputs.length} output block(s))`, () => {
      assert.ok(outputs.length > 0, `${script.name}: no <!-- output: ${script.name} --> block shows what it prints`);
      // Real timings on a shared machine: when a run was too noisy to decide (rows came out
      // `inconclusive` where the page shows a decision), that is perf-gate being honest about
      // the machine, not the page being wrong, so the script runs again, at most three times
      // in all, each in a fresh folder. Any other difference fails at once.
      let lastFailure = '';
      for (let attempt = 1; attempt <= 3; attempt++) {
        const dir = tempDir('perf-gate-doc-example-');
        const run = runDocumentedScript(script.body, dir, root);
        const problems: string[] = [];
        for (const out of outputs) {
          const shown = splitShownOutput(out.body).output;
          const diffs = terminalOutputDifferences(shown, run.stdout);
          const failed = /^✗ FAIL/m.test(shown);
          if (run.status !== (failed ? 1 : 0)) diffs.push(`exit status ${run.status}, expected ${failed ? 1 : 0} for a ${failed ? 'failing' : 'passing'} gate`);
          if (diffs.length > 0) problems.push(`${out.page}:${out.line}:\n  ${diffs.join('\n  ')}`);
        }
        if (problems.length === 0) return;
        lastFailure = `${script.name}, attempt ${attempt}, printed:\n${run.stdout}\nstderr:\n${run.stderr}\ndiffers from the page:\n${problems.join('\n')}`;
        if (!/printed "inconclusive"/.test(lastFailure)) break;
      }
      assert.fail(lastFailure);
    });
  }

  test('README.md: the error examples are what perf-gate prints for such input', async () => {
    const block = tagged.find((b) => b.page === 'README.md' && b.kind === 'output' && b.name === 'readme-errors');
    assert.ok(block, 'README.md marks its error examples <!-- output: readme-errors -->');
    const shown = block.body.split('\n').filter((l) => l.trim() !== '');
    // A budget file whose line 4 sets a limit in parsecs, and an empty harness output, each in its own folder.
    const budgetsDir = tempDir('perf-gate-doc-errors-');
    mkdirSync(join(budgetsDir, 'budgets'));
    writeFileSync(join(budgetsDir, 'budgets', 'scan.yml'), 'version: 1\nbenchmarks:\n  "*":\n    time: { max: 10parsecs }\n');
    writeFileSync(join(budgetsDir, 'head.json'), readFileSync(join(root, 'action', 'test', 'fixtures', 'hyperfine', 'two-commands.json')));
    const emptyDir = tempDir('perf-gate-doc-errors-');
    writeFileSync(join(emptyDir, 'head.json'), '');
    const printed = [
      (await runCli(['compare', '--current', 'head.json', '--budgets', 'budgets/'], budgetsDir)).stderr,
      (await runCli(['compare', '--current', 'head.json'], emptyDir)).stderr,
    ].join('');
    for (const line of shown) {
      // "…" in the page stands for text left out of a long message.
      const pattern = new RegExp(
        `^${line
          .split('…')
          .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
        'm',
      );
      assert.match(printed, pattern, `README.md:${block.line}: "${line}" is not what perf-gate prints:\n${printed}`);
    }
  });
});

describe('comparing a shown terminal report with a printed one', () => {
  const shown = [
    'Benchmark  Metric          Baseline          Current              Δ (95% CI)  Budget                Verdict',
    'sieve 1M   time     9.11 ms ± 1.28  24.10 ms ± 2.03  +201.3 % [+106.0, +512.0]  median ≤ 100 ms pass  regressed',
    '',
    '✗ FAIL — 1 regression',
  ].join('\n');

  test('other digits, units and notes are the same decision', () => {
    const printed = shown
      .replace('9.11 ms ± 1.28', '1.011 s ± 0.3')
      .replace('+201.3 % [+106.0, +512.0]', '+5.1 % [+2.0, +9.9]')
      .replace('regressed', 'regressed (noisier)');
    assert.deepEqual(terminalOutputDifferences(shown, `${printed.replace('\n\n✗', '\n\nFlags\n  noisier: …\n\n✗')}\n`), []);
  });

  test('another status, budget result, row or verdict is a difference', () => {
    assert.notDeepEqual(terminalOutputDifferences(shown, shown.replace(' regressed', ' inconclusive').replace('1 regression', '1 inconclusive')), []);
    assert.notDeepEqual(terminalOutputDifferences(shown, shown.replace('≤ 100 ms pass', '≤ 100 ms FAIL')), []);
    assert.notDeepEqual(terminalOutputDifferences(shown, shown.replace('sieve 1M', 'sieve 2M')), []);
    assert.notDeepEqual(terminalOutputDifferences(shown, shown.replace('+201.3 % [+106.0, +512.0]', '—')), []);
  });
});
