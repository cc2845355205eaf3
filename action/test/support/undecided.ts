/**
 * Runs a real measurement again, at most `attempts` times in all, while the
 * gate could not decide it (a row `inconclusive`, or a suspected regression
 * that fresh rounds did not confirm), and returns the last result. The
 * virtual machines these tests run on give a busy thread 17–59 % of a core
 * per half second; a run that met a long stall is the machine being
 * measured, and perf-gate saying so is right. A wrong decision (a slowdown
 * called unchanged or improved, a crash) is returned at once, so the
 * assertions after it still fail.
 */
export async function measureUntilDecided<T>(measure: () => Promise<T>, undecided: (result: T) => boolean, attempts = 3): Promise<T> {
  let result = await measure();
  for (let attempt = 2; attempt <= attempts && undecided(result); attempt++) result = await measure();
  return result;
}

/** A report row the gate could not decide: inconclusive, or not confirmed by fresh rounds. */
export function isUndecided(row: { status: string; flags?: readonly string[] } | undefined): boolean {
  return row !== undefined && (row.status === 'inconclusive' || (row.flags ?? []).includes('not-confirmed'));
}
