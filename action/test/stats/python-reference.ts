import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { requirePython } from '../support/tools.js';

/**
 * Runs reference.py (scipy/numpy) on a batch of cases, JSON in and out. One
 * process per batch keeps the suite fast. A missing python3, numpy or scipy
 * fails the test naming it and `npm run setup` (scripts/install/20-python.sh).
 */
export function pythonReference<T>(cases: readonly object[]): T[] {
  requirePython('numpy', 'scipy');
  const script = fileURLToPath(new URL('./reference.py', import.meta.url));
  const run = spawnSync('python3', [script], {
    input: JSON.stringify(cases),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: 120_000,
  });
  if (run.error) throw new Error(`python3 could not run (${run.error.message})`);
  if (run.status !== 0) throw new Error(`reference.py failed (exit ${run.status}): ${run.stderr.slice(-2000)}`);
  return JSON.parse(run.stdout) as T[];
}
