/**
 * A copy of the action as `uses:` would check it out — action.yml, action/bin,
 * and action/dist/cli.js freshly built from the current sources by the
 * project's own build script (`npm run build`'s action/scripts/build.mjs, run
 * in the copy) — in a temporary folder. The harness so tests exactly what the
 * build produces, without touching the committed dist/ (CI checks that one).
 * action/scripts/test.mjs builds it once per test run, before any test file
 * starts, and names it in PERF_GATE_TEST_ACTION_BUNDLE: seventeen test files
 * then copy one build of the sources they run instead of each building it.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

export const REPO_ROOT = new URL('../../../../', import.meta.url).pathname.replace(/\/$/, '');

export async function bundleAction(dir: string): Promise<string> {
  mkdirSync(join(dir, 'action', 'bin'), { recursive: true });
  mkdirSync(join(dir, 'action', 'scripts'), { recursive: true });
  copyFileSync(join(REPO_ROOT, 'action.yml'), join(dir, 'action.yml'));
  copyFileSync(join(REPO_ROOT, 'action', 'bin', 'run-action.sh'), join(dir, 'action', 'bin', 'run-action.sh'));
  chmodSync(join(dir, 'action', 'bin', 'run-action.sh'), 0o755);
  // The build script finds the sources and writes dist/ relative to itself.
  copyFileSync(join(REPO_ROOT, 'action', 'scripts', 'build.mjs'), join(dir, 'action', 'scripts', 'build.mjs'));
  symlinkSync(join(REPO_ROOT, 'action', 'src'), join(dir, 'action', 'src'));
  symlinkSync(join(REPO_ROOT, 'action', 'schemas'), join(dir, 'action', 'schemas'));
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
  symlinkSync(join(REPO_ROOT, 'package.json'), join(dir, 'package.json'));
  const built = process.env['PERF_GATE_TEST_ACTION_BUNDLE'];
  if (built && existsSync(built)) {
    mkdirSync(join(dir, 'action', 'dist'), { recursive: true });
    copyFileSync(built, join(dir, 'action', 'dist', 'cli.js'));
    chmodSync(join(dir, 'action', 'dist', 'cli.js'), 0o755);
  } else {
    execFileSync(process.execPath, [join(dir, 'action', 'scripts', 'build.mjs')], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 });
  }
  return dir;
}
