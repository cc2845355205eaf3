/**
 * A copy of the action as `uses:` would check it out (action.yml, action/bin,
 * and a freshly bundled action/dist/cli.js from the current sources), in a
 * temporary folder, so the harness tests what the sources do now without
 * touching the committed dist/ (CI checks that one separately).
 */
import { build } from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const REPO_ROOT = new URL('../../../../', import.meta.url).pathname.replace(/\/$/, '');

export async function bundleAction(dir: string): Promise<string> {
  mkdirSync(join(dir, 'action', 'bin'), { recursive: true });
  mkdirSync(join(dir, 'action', 'dist'), { recursive: true });
  copyFileSync(join(REPO_ROOT, 'action.yml'), join(dir, 'action.yml'));
  copyFileSync(join(REPO_ROOT, 'action', 'bin', 'run-action.sh'), join(dir, 'action', 'bin', 'run-action.sh'));
  chmodSync(join(dir, 'action', 'bin', 'run-action.sh'), 0o755);
  const outfile = join(dir, 'action', 'dist', 'cli.js');
  await build({
    entryPoints: [join(REPO_ROOT, 'action', 'src', 'cli.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __pgCreateRequire } from 'node:module';\nconst require = __pgCreateRequire(import.meta.url);",
    },
    legalComments: 'none',
    logLevel: 'error',
  });
  return dir;
}
