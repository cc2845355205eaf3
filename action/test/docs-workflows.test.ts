import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * Every workflow step in README.md, docs/ and examples/workflows/ that uses the action passes only
 * inputs action.yml declares, with an accepted value where the input is a
 * boolean: a misspelt input in an example is copied into users' workflows,
 * where GitHub only warns and the action runs with the default.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const inputs = (parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }> }).inputs;
const documents = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  ...readdirSync(join(ROOT, 'examples/workflows'))
    .filter((f) => f.endsWith('.yml'))
    .map((f) => `examples/workflows/${f}`),
];

/** The `with:` block after each `uses: org/perf-gate@v1` line of a text: key → value. */
export function perfGateSteps(text: string): { line: number; with: Record<string, string> }[] {
  const lines = text.split('\n');
  const out: { line: number; with: Record<string, string> }[] = [];
  lines.forEach((l, i) => {
    const uses = /^(\s*)(?:- )?uses: org\/perf-gate@(?:v1|[0-9a-f]{40})\s*(?:#.*)?$/.exec(l);
    if (!uses) return;
    const step: Record<string, string> = {};
    let j = i + 1;
    const withLine = /^(\s*)with:\s*$/.exec(lines[j] ?? '');
    if (withLine) {
      const indent = withLine[1]!.length;
      for (j++; j < lines.length; j++) {
        const m = /^(\s*)([a-z][a-z0-9-]*):\s*(.*?)\s*(?:#.*)?$/.exec(lines[j]!);
        if (!m || m[1]!.length <= indent) break;
        step[m[2]!] = m[3]!;
      }
    }
    out.push({ line: i + 1, with: step });
  });
  return out;
}

test('the parser finds the steps and their inputs', () => {
  assert.equal(perfGateSteps(`      - uses: org/perf-gate@${'0a'.repeat(20)}   # v1.0.0, pinned\n`).length, 1, 'a step pinned to a commit');
  assert.deepEqual(
    perfGateSteps('      - uses: org/perf-gate@v1\n        with:\n          mode: main   # the branch\n          alert: issue\n      - run: x\n'),
    [{ line: 1, with: { mode: 'main', alert: 'issue' } }],
  );
});

test('every documented perf-gate step passes only inputs action.yml declares', () => {
  let steps = 0;
  for (const doc of documents) {
    for (const step of perfGateSteps(readFileSync(join(ROOT, doc), 'utf8'))) {
      steps++;
      for (const [key, value] of Object.entries(step.with)) {
        assert.ok(key in inputs, `${doc}:${step.line}: input "${key}" is not in action.yml`);
        if (inputs[key]!.default === 'true' || inputs[key]!.default === 'false')
          assert.match(value, /^(['"]?)(true|false)\1$|^\$\{\{.*\}\}$/, `${doc}:${step.line}: ${key}: ${value}`);
      }
    }
  }
  assert.ok(steps >= 10, `only ${steps} documented steps found`);
});
