import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFileCommand, runComposite } from './run-composite.js';
import { tempDir } from '../temp.js';

function actionDir(yml: string): string {
  const dir = tempDir('composite-');
  writeFileSync(join(dir, 'action.yml'), yml);
  return dir;
}

const base = (dir: string) => ({
  actionPath: dir,
  env: { PATH: process.env['PATH'] ?? '', GITHUB_WORKSPACE: dir },
  github: { token: 'tok', event_name: 'push' },
  runner: { temp: dir },
  tempDir: join(dir, 'files'),
});

test('file commands: multi-line outputs, exported env, step summary; outputs evaluated from steps', async () => {
  const dir = actionDir(`
inputs:
  who: { description: d, default: "\${{ github.event_name }}-default" }
outputs:
  greeting: { description: d, value: "\${{ steps.one.outputs.greeting }}" }
  seen: { description: d, value: "\${{ steps.two.outputs.seen }}" }
runs:
  using: composite
  steps:
    - id: one
      shell: bash
      env: { WHO: "\${{ inputs.who }}" }
      run: |
        { echo "greeting<<EOF"; echo "hello $WHO"; echo "line two"; echo "EOF"; } >> "$GITHUB_OUTPUT"
        echo "SHARED=from-one" >> "$GITHUB_ENV"
        echo "# summary" >> "$GITHUB_STEP_SUMMARY"
    - id: two
      shell: bash
      run: echo "seen=$SHARED $GITHUB_ACTION_PATH" >> "$GITHUB_OUTPUT"
`);
  const r = await runComposite({ ...base(dir), inputs: {} });
  assert.equal(r.outcome, 'success');
  assert.equal(r.outputs['greeting'], 'hello push-default\nline two');
  assert.equal(r.outputs['seen'], `from-one ${dir}`);
  assert.equal(r.summary, '# summary\n');
});

test('a failing step fails the action and skips later steps unless they ask for failure()', async () => {
  const dir = actionDir(`
runs:
  using: composite
  steps:
    - { id: a, shell: bash, run: "exit 3" }
    - { id: b, shell: bash, run: "echo ran=yes >> \\"$GITHUB_OUTPUT\\"" }
    - { id: c, shell: bash, if: "\${{ failure() }}", run: "echo ran=yes >> \\"$GITHUB_OUTPUT\\"" }
`);
  const r = await runComposite({ ...base(dir), inputs: {} });
  assert.equal(r.outcome, 'failure');
  assert.deepEqual(
    r.steps.map((s) => [s.id, s.outcome]),
    [
      ['a', 'failure'],
      ['b', 'skipped'],
      ['c', 'success'],
    ],
  );
  assert.equal(r.steps[0]!.exitCode, 3);
});

test('refuses ${{ }} inside run: and undeclared inputs', async () => {
  const dir = actionDir(`
inputs:
  x: { description: d }
runs:
  using: composite
  steps:
    - { shell: bash, run: "echo \${{ inputs.x }}" }
`);
  await assert.rejects(runComposite({ ...base(dir), inputs: { x: '1' } }), /run: contains/);
  await assert.rejects(runComposite({ ...base(dir), inputs: { y: '1' } }), /Unexpected input 'y'/);
});

test('parses name=value and heredoc lines, refusing an unclosed heredoc', () => {
  assert.deepEqual(parseFileCommand('a=1\nb<<X\nq\nr\nX\nc=x=y\n'), { a: '1', b: 'q\nr', c: 'x=y' });
  assert.throws(() => parseFileCommand('b<<X\nq\n'), /no closing delimiter/);
});
