import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';

/**
 * The house rules eslint.config.js enforces, tried on probe files placed in
 * the folders they govern (linted as text, never written): GitHub stays in
 * github/ and the action face, layers import only downwards, and a file's
 * length counts every physical line.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const eslint = new ESLint({ cwd: ROOT });

async function errors(path: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: `${ROOT}${path}` });
  return result!.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

const GITHUB_PROBE =
  "import { context } from '@actions/github';\nimport type { GitHubApi } from '../github/client.js';\nexport const probe: [unknown, GitHubApi | null] = [context, null];\n";

describe('the layer rules', () => {
  for (const folder of ['pipeline', 'gate']) {
    test(`${folder}/ may not talk to GitHub: neither @actions/github nor github/`, async () => {
      const found = await errors(`action/src/${folder}/probe.ts`, GITHUB_PROBE);
      assert.equal(found.length, 2, found.join('\n'));
      assert.match(found[0]!, new RegExp(`${folder}/ must not talk to GitHub`));
      assert.match(found[1]!, new RegExp(`${folder}/ must not import github/`));
    });
  }

  test('the action face may: it is where GitHub is told', async () => {
    assert.deepEqual(await errors('action/src/action/probe.ts', GITHUB_PROBE), []);
  });

  test('a file is measured in physical lines: 401 lines of comments are too many', async () => {
    const text = `${'// a comment line\n'.repeat(400)}export const x = 1;\n`;
    assert.match((await errors('action/src/report/probe.ts', text)).join('\n'), /max-lines/);
    assert.deepEqual(await errors('action/src/report/probe.ts', `${'// a comment line\n'.repeat(399)}export const x = 1;\n`), []);
  });
});
