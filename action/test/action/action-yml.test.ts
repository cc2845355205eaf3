/**
 * action.yml is the action's public face: every input documented (default,
 * when to change it, security risk where relevant) and passed to the program
 * through env:, every output wired to the step; docs/github-action.md's tables
 * are generated from it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { inputVariable } from '../../src/action/read-settings.js';
import { tempDir } from '../support/temp.js';

const root = new URL('../../../', import.meta.url).pathname;
interface ActionYml {
  inputs: Record<string, { description: string; default?: string; required?: boolean }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: { id?: string; env?: Record<string, string>; run?: string }[] };
}
const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as ActionYml;

test('declares the inputs the issue asks for', () => {
  for (const name of ['config', 'budgets', 'baseline', 'mode', 'github-token', 'comment', 'fail-on', 'node-path', 'allow-fork-pull-requests']) {
    assert.ok(name in action.inputs, name);
  }
});

test('every input says its default and what it does; security-relevant ones state the risk', () => {
  for (const [name, spec] of Object.entries(action.inputs)) {
    assert.ok(spec.description.length > 60, `${name} has a real description`);
    assert.match(spec.description, /Default/, `${name} states its default`);
    assert.notEqual(spec.required, true, `${name}: the runner does not enforce required; perf-gate validates`);
  }
  for (const name of ['github-token', 'allow-fork-pull-requests', 'config']) {
    assert.match(action.inputs[name]!.description, /Security/, `${name} states the risk`);
  }
});

test('every input reaches the program through env:, and only through env:', () => {
  const step = action.runs.steps.find((s) => s.id === 'gate')!;
  for (const name of Object.keys(action.inputs)) {
    const variable = name === 'node-path' ? 'PERF_GATE_NODE' : inputVariable(name);
    assert.equal(step.env?.[variable], `\${{ inputs.${name} }}`, `${name} → ${variable}`);
  }
  assert.equal(step.run?.includes('${{'), false);
});

test('every output comes from the step', () => {
  for (const [name, spec] of Object.entries(action.outputs)) {
    assert.equal(spec.value, `\${{ steps.gate.outputs.${name} }}`, name);
  }
});

test('docs/github-action.md tables match action.yml, and the check notices drift', () => {
  const script = join(root, 'action', 'scripts', 'docs-action.mjs');
  const ok = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
  assert.equal(ok.status, 0, ok.stderr);
  const stale = join(tempDir('docs-'), 'github-action.md');
  writeFileSync(stale, readFileSync(join(root, 'docs', 'github-action.md'), 'utf8').replace('| `comment` |', '| `comments` |'));
  const bad = spawnSync(process.execPath, [script, '--check', '--docs', stale], { encoding: 'utf8' });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /out of date with action\.yml/);
});
