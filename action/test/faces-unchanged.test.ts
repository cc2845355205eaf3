import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './support/cli.js';
import { tempDir } from './support/temp.js';
import { startFakeGitHub, type FakeGitHub } from './support/fake-github/server.js';
import { bundleAction } from './support/action-runner/bundle.js';
import { pullRequestEvent, runAction, type Scenario } from './support/action-runner/scenario.js';
import { resultSet } from './action/fixtures.js';
import type { ResultSet } from '../src/model/index.js';

/**
 * What a user sees from each face of perf-gate — the `compare` and `run`
 * commands and the GitHub Action — on fixed inputs: exit status, terminal
 * output, the JSON and Markdown reports, stored results, action outputs, the
 * job summary, the pull request comment and the check run. Recorded under
 * action/test/fixtures/faces/ before the orchestration moved into pipeline/,
 * so any refactor of the middle must leave them byte for byte the same.
 *
 * Only what differs between machines or runs is normalised: temporary paths,
 * the machine's testbed id and facts (CPU, kernel, memory …), timestamps and durations. Regenerate with
 * UPDATE_GOLDEN=1 only for an intended behaviour change, and read the diff.
 */
const DIR = new URL('fixtures/faces/', import.meta.url).pathname;
const UPDATE = process.env.UPDATE_GOLDEN === '1';

function checkGolden(name: string, actual: string): void {
  const path = join(DIR, name);
  if (UPDATE) {
    mkdirSync(DIR, { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  assert.ok(existsSync(path), `no golden ${name}; record it with UPDATE_GOLDEN=1`);
  assert.equal(actual, readFileSync(path, 'utf8'), `${name} differs from the recorded output`);
}

/** Replaces what legitimately differs between machines and runs. */
function normalise(text: string, root: string): string {
  return (
    text
      .split(root)
      .join('<tmp>')
      // The machine's testbed id (a hash); the fixtures' ids and commits are one repeated character.
      .replace(/\b[0-9a-f]{16,64}\b/g, (hex) => (/^(.)\1+$/.test(hex) || !/[a-f]/.test(hex) ? hex : '<hex>'))
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
      .replace(/\b\d+(\.\d+)? ?(ms|s)\)/g, '<duration>)')
      .replace(/elapsed \d+s, about \d+s left/g, 'elapsed <s>, about <s> left')
      // What the machine running the test is (the testbed facts of a stored run): not what the faces decide.
      .replace(/^(\s*"(?:cpu|cores|kernel|governor|turbo|smt|arch|mitigations|memory)": ).*?(,?)$/gm, '$1<machine>$2')
      // The software of the machine (kernel, microcode where it shows, the tools the suites call), as a whole.
      .replace(/^(\s*)"environment": \{\n[\s\S]*?\n\1\}(,?)$/gm, '$1"environment": <machine>$2')
  );
}

/** Every file below `dir`, as "path:\n<content>" blocks in sorted order. */
function tree(dir: string, root: string): string {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(`=== ${path.slice(dir.length + 1)}\n${readFileSync(path, 'utf8')}`);
    }
  };
  if (existsSync(dir)) walk(dir);
  return normalise(out.join('\n'), root);
}

function withTestbed(set: ResultSet, id: string): ResultSet {
  return { ...set, testbed: { id, cpu: 'test cpu', cores: 2, kernel: '6.1', governor: 'performance', turbo: false, smt: false, runner: 'bm-01' } };
}

function failedBenchmark(set: ResultSet, id: string): ResultSet {
  return {
    ...set,
    benchmarks: [...set.benchmarks, { id, status: 'failed', metrics: {}, error: { message: 'exited with code 3', logTail: 'panic: out of range\n' } }],
  };
}

/** A workspace with a baseline and a current run that differ in every way a row can. */
function writeInputs(ws: string): void {
  mkdirSync(join(ws, 'budgets'), { recursive: true });
  const base = resultSet('1'.repeat(40), { 'scan/fast': 0.01, 'scan/slow': 0.02, 'scan/same': 0.03, 'scan/gone': 0.005 });
  const head = failedBenchmark(resultSet('2'.repeat(40), { 'scan/fast': 0.008, 'scan/slow': 0.026, 'scan/same': 0.0301, 'scan/added': 0.004 }), 'scan/crash');
  writeFileSync(join(ws, 'base.json'), JSON.stringify(base));
  writeFileSync(join(ws, 'head.json'), JSON.stringify(head));
  writeFileSync(join(ws, 'base-tb.json'), JSON.stringify(withTestbed(base, 'a'.repeat(16))));
  writeFileSync(join(ws, 'head-tb.json'), JSON.stringify(withTestbed(head, 'b'.repeat(16))));
  writeFileSync(
    join(ws, 'budgets', 'scan.yml'),
    'version: 1\ndefaults:\n  regression: 5%\nbenchmarks:\n  "scan/same":\n    time: { max: 25ms, severity: warn }\n  "scan/fast":\n    time: { max: 20ms }\n  "nothing/*":\n    time: { max: 1s }\n',
  );
  writeFileSync(join(ws, 'bad-budget.yml'), 'version: 1\nbenchmarks:\n  "scan/*":\n    time: { max: 10parsecs }\n');
}

describe('the command line prints and writes what it did before the refactor', () => {
  const ws = tempDir('perf-gate-faces-cli-');
  writeInputs(ws);
  const hyperfine = new URL('fixtures/hyperfine/', import.meta.url).pathname;

  const CASES: Record<string, string[]> = {
    'compare-mixed': [
      'compare',
      '--baseline',
      'base.json',
      '--current',
      'head.json',
      '--budgets',
      'budgets',
      '--json',
      'out/report.json',
      '--markdown',
      'out/report.md',
    ],
    'compare-no-baseline': ['compare', '--current', 'head.json', '--budgets', 'budgets', '--json', 'out/report.json'],
    'compare-testbed-flag': ['compare', '--baseline', 'base-tb.json', '--current', 'head-tb.json', '--json', 'out/report.json'],
    'compare-testbed-compare': ['compare', '--baseline', 'base-tb.json', '--current', 'head-tb.json', '--testbed-mismatch', 'compare'],
    'compare-testbed-refuse': ['compare', '--baseline', 'base-tb.json', '--current', 'head-tb.json', '--testbed-mismatch', 'refuse'],
    'compare-bad-budget': ['compare', '--baseline', 'base.json', '--current', 'head.json', '--budgets', 'bad-budget.yml'],
    'compare-hyperfine-aa': [
      'compare',
      '--baseline',
      join(hyperfine, 'two-commands.json'),
      '--current',
      join(hyperfine, 'two-commands.json'),
      '--json',
      'out/report.json',
    ],
    'convert-bmf': ['convert', '--to', 'bmf', '--input', 'head.json'],
  };

  for (const [name, argv] of Object.entries(CASES)) {
    test(name, async () => {
      const out = join(ws, 'out');
      const run = await runCli(argv, ws);
      const files = tree(out, ws);
      checkGolden(`${name}.txt`, normalise(`exit ${run.status}\n--- stdout\n${run.stdout}--- stderr\n${run.stderr}--- files\n${files}\n`, ws));
      if (existsSync(out)) for (const f of readdirSync(out)) writeFileSync(join(out, f), '');
    });
  }

  test('run: suites that crash and succeed, compared with a baseline, then stored as main', async () => {
    const proj = join(ws, 'proj');
    mkdirSync(join(proj, 'budgets'), { recursive: true });
    mkdirSync(join(proj, 'baselines'), { recursive: true });
    writeFileSync(join(proj, 'recorded.json'), readFileSync(join(hyperfine, 'two-commands.json')));
    writeFileSync(
      join(proj, 'perf-gate.yml'),
      [
        'version: 1',
        'budgets: budgets/',
        'baselines: baselines/',
        'suites:',
        '  - name: copy',
        '    run: cp recorded.json {output}',
        '    format: hyperfine',
        '  - name: crash',
        '    run: echo "about to fail"; exit 4',
        '    format: hyperfine',
        '',
      ].join('\n'),
    );
    writeFileSync(join(proj, 'budgets', 'b.yml'), 'version: 1\nbenchmarks:\n  "copy/*":\n    time: { max: 1s }\n');
    const first = await runCli(
      ['run', '--config', 'perf-gate.yml', '--out', 'results', '--json', 'report.json', '--markdown', 'report.md', '--mode', 'main'],
      proj,
    );
    const second = await runCli(['run', '--config', 'perf-gate.yml', '--out', 'results', '--json', 'report.json'], proj);
    const text = [first, second].map((r, i) => `## run ${i + 1}\nexit ${r.status}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`).join('\n');
    const files = ['report.json', 'report.md', 'baselines/results.json', 'results/results.json']
      .map((f) => `=== ${f}\n${existsSync(join(proj, f)) ? readFileSync(join(proj, f), 'utf8') : '(absent)\n'}`)
      .join('');
    checkGolden('run-main-then-pr.txt', normalise(`${text}--- files\n${files}`, ws));
  });
});

describe('the action writes, posts and outputs what it did before the refactor', () => {
  let gh: FakeGitHub;
  let actionPath: string;
  const root = tempDir('perf-gate-faces-action-');

  before(async () => {
    actionPath = await bundleAction(join(root, 'action'));
    gh = await startFakeGitHub();
    gh.tokens.set('ghs', null);
  });
  after(async () => gh.close());

  function scenario(name: string, eventName: string, event: Record<string, unknown>, ref = 'refs/heads/main'): Scenario {
    const ws = join(root, name);
    mkdirSync(ws, { recursive: true });
    writeInputs(ws);
    return { workspace: ws, runnerTemp: join(ws, '_temp'), apiUrl: gh.url, token: 'ghs', repository: 'acme/x', eventName, event, sha: '2'.repeat(40), ref };
  }

  const MODES: Record<string, { eventName: string; event: Record<string, unknown>; ref?: string; inputs: Record<string, string> }> = {
    'action-pr': {
      eventName: 'pull_request',
      event: pullRequestEvent(7, '2'.repeat(40), 'acme/x', 'acme/x'),
      inputs: { baseline: 'base.json', results: 'head.json', budgets: 'budgets', preflight: 'off' },
    },
    'action-release': {
      eventName: 'push',
      event: { ref: 'refs/tags/v2.0.0' },
      ref: 'refs/tags/v2.0.0',
      inputs: { mode: 'release', baseline: 'base.json', results: 'head.json', budgets: 'budgets', 'gate-name': 'perf-gate-release', preflight: 'off' },
    },
    'action-no-baseline-never-fails': {
      eventName: 'push',
      event: { ref: 'refs/heads/main' },
      inputs: { results: 'head.json', 'fail-on': 'never', preflight: 'off' },
    },
  };

  for (const [name, m] of Object.entries(MODES)) {
    test(name, async () => {
      const s = scenario(name, m.eventName, m.event, m.ref);
      const commentsBefore = gh.comments.length;
      const runsBefore = gh.checkRuns.length;
      const r = await runAction(actionPath, s, m.inputs);
      const outputs = Object.entries(r.outputs)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => `${k}=${v}`)
        .join('\n');
      const comments = gh.comments
        .slice(commentsBefore)
        .map((c) => `=== comment on #${c.issue}\n${c.body}`)
        .join('\n');
      const runs = gh.checkRuns
        .slice(runsBefore)
        .map((c) => `=== check run ${c.name} ${c.conclusion}\n${c.output.title}\n${c.output.summary}\n${JSON.stringify(c.output.annotations, null, 1)}`)
        .join('\n');
      const reportDir = r.outputs['report-json'] ? r.outputs['report-json'].replace(/\/report\.json$/, '') : '';
      const files = ['report.json', 'report.md', 'results.json', 'release-report.md']
        .map((f) => `=== ${f}\n${reportDir && existsSync(join(reportDir, f)) ? readFileSync(join(reportDir, f), 'utf8') : '(absent)\n'}`)
        .join('');
      const annotations = r.annotations.map((a) => `::${a.command}:: ${a.message}`).join('\n');
      checkGolden(
        `${name}.txt`,
        normalise(
          `outcome ${r.outcome}\n--- outputs\n${outputs}\n--- annotations\n${annotations}\n--- summary\n${r.summary}--- comments\n${comments}\n--- check runs\n${runs}\n--- files\n${files}`,
          root,
        ),
      );
      assert.deepEqual(gh.violations, []);
    });
  }
});
