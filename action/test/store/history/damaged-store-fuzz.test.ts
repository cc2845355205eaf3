import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { encodeRun } from '../../../src/store/history/codec.js';
import { openFolder, sampleRun } from '../../support/history.js';
import { mutatedBytes } from '../../support/mutations.js';
import { tempDir } from '../../support/temp.js';

/**
 * Hardening, round two: one damaged run among good ones never stops a
 * reader. Whatever the damage (fast-check mutations of the file's bytes),
 * the store reads every good run and either reads the damaged one or names
 * it as unreadable; nothing throws.
 */
test('a history with one damaged run: every good run is read, the damaged one read or named', async () => {
  const root = tempDir('perf-gate-damaged-fuzz-');
  mkdirSync(join(root, 'bed-a/2026/01'), { recursive: true });
  const files = [1, 2, 3].map((i) => join(root, 'bed-a/2026/01', `${String(i).repeat(40)}-2026010${i}T000000Z-00000000000${i}.json.gz`));
  files.forEach((f, i) => writeFileSync(f, encodeRun(sampleRun(String(i + 1).repeat(40), `2026-01-0${i + 1}T00:00:00Z`, 'bed-a', i + 1, 3))));
  const good = encodeRun(sampleRun('2'.repeat(40), '2026-01-02T00:00:00Z', 'bed-a', 2, 3));
  await fc.assert(
    fc.asyncProperty(mutatedBytes(good), async ({ bytes, steps }) => {
      writeFileSync(files[1]!, bytes);
      const store = openFolder(root);
      const { entries } = await store.readUsable(await store.list());
      const unreadable = store.unreadable().map((u) => u.file);
      assert.ok(entries.some((e) => e.runId.endsWith('1')) && entries.some((e) => e.runId.endsWith('3')), `a good run was lost after ${steps.join('; ')}`);
      assert.equal(entries.length + unreadable.length, 3, `after ${steps.join('; ')}: ${entries.length} read, ${unreadable.join(', ')} unreadable`);
    }),
    { numRuns: 150, seed: 24 },
  );
});
