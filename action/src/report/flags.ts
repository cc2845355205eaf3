import type { RowFlag, VerdictRow } from '../gate/types.js';
import { formatCount } from './format.js';
import { stageNote } from './stage-text.js';
import { acceptanceNote } from './acceptance-text.js';

/**
 * What each row flag means to a reader, in one sentence that says what to do
 * about it when there is something to do. Every format's legend uses this
 * table; a new flag in gate/types.ts fails the type check here until it has
 * its sentence.
 */
export const FLAG_TEXT: Record<RowFlag, string> = {
  noisier:
    'the spread grew significantly (wider or heavier upper tail than the baseline): the benchmark became less stable; look for new contention or variable work',
  'single-sample': 'one value per side: compared with the tolerance alone, no significance test; repeat the measurement to get a test',
  'insufficient-samples': 'too few samples to decide; rerun with at least the number of samples per side shown in the row',
  'different-testbed': 'baseline and current were measured on different machines or settings: the change may come from the machine, not the code',
  'environment-changed':
    'the kernel, microcode, a toolchain, a build flag or a lockfile differs from the baseline’s (listed above the table): look there before the code',
  'summary-only': 'only mean, stddev and n were available: compared with Welch’s test on the log scale',
  exact:
    'a deterministic count: the tolerance applies directly, no test needed; counts do not see time spent waiting (I/O, locks, sleep), so keep a time row beside them',
  paired: 'measured in interleaved baseline/current rounds and analysed pair by pair, so slow drift cancels',
  confirmed: 'a re-run confirmed the change',
  'not-confirmed': 'a re-run did not confirm the change: treat it as noise unless it recurs',
  'baseline-failed':
    'the baseline run of this benchmark failed (a test failure or error) but still measured a value: compared with it; the current run passes, so the failure is gone',
  ignored: 'ignored by a budget (`ignore: true`): shown for information, never fails the gate',
  flips:
    'the benchmark settles in one of two levels per process (code alignment, a hash seed, a JIT tier): compared level by level, so a different mix of the levels is no change; a level that moved, or a new slower one, is',
};

/** The flags present in some rows, in FLAG_TEXT's order (so legends are stable). */
export function flagsIn(rows: readonly VerdictRow[]): RowFlag[] {
  const present = new Set<RowFlag>(rows.flatMap((r) => r.flags));
  return (Object.keys(FLAG_TEXT) as RowFlag[]).filter((f) => present.has(f));
}

/**
 * The short notes shown beside a row's verdict: its flags and, for a row that
 * could not be decided, how many samples per side (paired rounds) would decide it; in a
 * two-stage verdict, which stage decided it.
 */
export function rowNotes(row: VerdictRow): string[] {
  const notes: string[] = [...row.flags];
  if (row.samplesNeeded !== null && (row.status === 'inconclusive' || row.flags.includes('insufficient-samples'))) {
    // Interleaved rows are decided round by round: more rounds, not more samples, decide them.
    notes.push(`needs ≈ ${formatCount(row.samplesNeeded)} ${row.flags.includes('paired') ? 'paired rounds' : 'samples per side'}`);
  }
  if (row.stage) notes.push(stageNote(row.stage));
  if (row.acceptance) notes.push(acceptanceNote(row.acceptance));
  return notes;
}
