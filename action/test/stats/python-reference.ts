import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Runs reference.py (scipy/numpy) on a batch of cases, JSON in and out. One
 * process per batch keeps the suite fast. A missing python3 or scipy fails the
 * test with the install hint: CI installs them (.ci/install.d/30-python-stats.sh).
 */
export function pythonReference<T>(cases: readonly object[]): T[] {
  const script = fileURLToPath(new URL('./reference.py', import.meta.url));
  const run = spawnSync('python3', [script], {
    input: JSON.stringify(cases),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: 120_000,
  });
  if (run.error) throw new Error(`python3 could not run (${run.error.message}); install it and scipy: bash .ci/install.d/30-python-stats.sh`);
  if (run.status !== 0) {
    throw new Error(`reference.py failed (exit ${run.status}): ${run.stderr.slice(-2000)}\nIs scipy installed? bash .ci/install.d/30-python-stats.sh`);
  }
  return JSON.parse(run.stdout) as T[];
}
