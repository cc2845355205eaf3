import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

/**
 * A fresh temporary folder, removed when the enclosing suite (or file) ends.
 * Call it in a describe body or at top level, not inside a hook.
 */
export function tempDir(prefix = 'perf-gate-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
