import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

/**
 * A fresh temporary folder, removed when the enclosing test, suite or file
 * ends, whether it passed or failed. Call it in a test, a describe body or at
 * top level, not inside a hook. Tests make their temporary folders with this,
 * never a bare mkdtemp, so `npm test` leaves nothing in /tmp.
 */
export function tempDir(prefix = 'perf-gate-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
