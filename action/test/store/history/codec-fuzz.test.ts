import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeMonth, decodeMonthHeader, decodeRun, encodeMonth, encodeRun, runLine } from '../../../src/store/history/codec.js';
import { sampleRun, validate } from '../../support/history.js';
import { classifyError } from '../../support/fuzz-targets.js';
import { mutatedBytes } from '../../support/mutations.js';

/**
 * History files come back from a data branch anyone with push access could
 * have written, or from a disk that filled up mid-write. A damaged run file
 * or month file is an InputError naming it, or (a flipped byte inside a
 * number, say) a run that still passes the ResultSet schema, never a crash
 * and never a half-read month.
 */
const RUN_FILE = 'bed-a/2026/01/20260101T000000Z-aaaa.json.gz';
const MONTH_FILE = 'bed-a/2026/01/month.jsonl.br';

const run = sampleRun('a'.repeat(40), '2026-01-01T00:00:00Z', 'bed-a', 3, 4);
const runBytes = encodeRun(run);
const month = encodeMonth(
  { testbed: 'bed-a', month: '2026-01' },
  [1, 2, 3].map((i) => ({
    commit: String(i).repeat(40),
    runId: `2026010${i}T000000Z-aaaa`,
    json: runLine(sampleRun(String(i).repeat(40), `2026-01-0${i}T00:00:00Z`, 'bed-a', i, 4)),
  })),
);

function outcome(decode: () => unknown, file: string): string | null {
  try {
    decode();
    return null;
  } catch (error) {
    const c = classifyError(error, file);
    return c.kind === 'crash' ? c.why : null;
  }
}

test('the seeds decode', () => {
  assert.equal(decodeRun(runBytes, RUN_FILE, validate).benchmarks.length, 4);
  assert.equal(decodeMonth(month, MONTH_FILE, validate).runs.length, 3);
});

test('a damaged single-run file (gzip) decodes to a valid run or an InputError naming it', () => {
  fc.assert(
    fc.property(mutatedBytes(runBytes), ({ bytes, steps }) => {
      assert.equal(
        outcome(() => decodeRun(bytes, RUN_FILE, validate), RUN_FILE),
        null,
        steps.join('; '),
      );
    }),
    { numRuns: 400, seed: 31 },
  );
});

test('a damaged month file (brotli) decodes whole or is an InputError naming it, header and runs alike', () => {
  fc.assert(
    fc.property(mutatedBytes(month), ({ bytes, steps }) => {
      assert.equal(
        outcome(() => decodeMonth(bytes, MONTH_FILE, validate), MONTH_FILE),
        null,
        steps.join('; '),
      );
      assert.equal(
        outcome(() => decodeMonthHeader(bytes, MONTH_FILE, true), MONTH_FILE),
        null,
        `header: ${steps.join('; ')}`,
      );
    }),
    { numRuns: 400, seed: 32 },
  );
});
