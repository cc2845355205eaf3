/**
 * Every workflow (this repository's and the examples) passes actionlint, which
 * also runs shellcheck on their `run:` scripts; every shell script passes
 * shellcheck; action.yml keeps `${{ }}` out of `run:`. The tools are installed
 * by `npm run setup` (scripts/install/); a missing tool fails, never skips.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { requireTool } from '../support/tools.js';
import { tempDir } from '../support/temp.js';

requireTool('actionlint', 'shellcheck');

const root = new URL('../../../', import.meta.url).pathname;

function goBin(): string {
  for (const go of ['go', '/usr/local/go/bin/go']) {
    try {
      return join(execFileSync(go, ['env', 'GOPATH'], { encoding: 'utf8' }).trim(), 'bin');
    } catch {
      /* try the next */
    }
  }
  return '';
}

function tool(name: string): string {
  const candidates = [join(goBin(), name), ...(process.env['PATH'] ?? '').split(':').map((d) => join(d, name))];
  const found = candidates.find((c) => c !== name && existsSync(c));
  if (!found) throw new Error(`${name} is not installed: run npm run setup`);
  return found;
}

function files(dir: string, keep: (name: string, path: string) => boolean): string[] {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs)
    .map((n) => join(abs, n))
    .filter((p) => statSync(p).isFile() && keep(p.split('/').pop()!, p));
}

const workflows = [...files('.github/workflows', (n) => /\.ya?ml$/.test(n)), ...files('examples/workflows', (n) => /\.ya?ml$/.test(n))];

const isBash = (_n: string, p: string): boolean => /^#!.*\b(bash|sh)\b/.test(readFileSync(p, 'utf8').split('\n')[0] ?? '');
const scripts = [...files('action/bin', isBash), ...files('scripts', isBash), ...files('.ci', isBash), ...files('scripts/install', (n) => n.endsWith('.sh'))];

function actionlint(paths: string[], cwd = root): { status: number | null; output: string } {
  const shellcheckDir = tool('shellcheck').replace(/\/shellcheck$/, '');
  const r = spawnSync(tool('actionlint'), ['-no-color', ...paths], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${shellcheckDir}:${process.env['PATH'] ?? ''}` },
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

test('the workflows to lint are all there', () => {
  const names = workflows.map((w) => w.replace(root, ''));
  for (const expected of [
    '.github/workflows/ci.yml',
    '.github/workflows/gate.yml',
    '.github/workflows/release.yml',
    'examples/workflows/pr-gate.yml',
    'examples/workflows/fork-stage-1.yml',
    'examples/workflows/fork-stage-2.yml',
    'examples/workflows/main-baseline.yml',
    'examples/workflows/main-history.yml',
    'examples/workflows/release-gate.yml',
  ]) {
    assert.ok(names.includes(expected), `${expected} exists`);
  }
});

test('actionlint (with shellcheck) passes on every workflow', () => {
  const r = actionlint(workflows);
  assert.equal(r.status, 0, r.output);
});

test('actionlint catches an expression injected into a run: script (the check can fail)', () => {
  const dir = tempDir('actionlint-neg-');
  mkdirSync(join(dir, '.github', 'workflows'), { recursive: true });
  const bad = join(dir, '.github', 'workflows', 'bad.yml');
  writeFileSync(bad, 'on: pull_request\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "${{ github.event.pull_request.title }}"\n');
  const r = actionlint([bad], dir);
  assert.notEqual(r.status, 0);
  assert.match(r.output, /potentially untrusted/);
});

test('shellcheck passes on every shell script', () => {
  assert.ok(scripts.some((s) => s.endsWith('action/bin/run-action.sh')));
  const r = spawnSync(tool('shellcheck'), ['--external-sources', ...scripts], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
});

test('action.yml passes every value through env:, never ${{ }} inside run:', () => {
  const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as { runs: { steps: { run?: string; env?: Record<string, string> }[] } };
  const runs = action.runs.steps.filter((s) => s.run !== undefined);
  assert.ok(runs.length > 0);
  for (const step of runs) assert.equal(step.run!.includes('${{'), false, step.run);
});
