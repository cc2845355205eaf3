/**
 * Baseline and current measured on different testbeds. Under
 * `testbedMismatch: refuse` that makes the input unusable: the gate throws
 * TestbedMismatchError and the caller maps it to exit status 2, like an
 * InputError. Otherwise the gate warns (report/warning-text.ts) with the same
 * sentence, which lives here so the error and the warning cannot drift apart.
 */

/**
 * Whether two recorded testbeds are one machine: equal ids, or one side's id
 * is the other's `formerId` (the id recipe 1 gave the same machine, before
 * the kernel left the id). Unknown sides are never the same.
 */
export function sameTestbedIds(a: { id: string; formerId?: unknown } | undefined, b: { id: string; formerId?: unknown } | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  return a.id === b.id || a.id === b.formerId || b.id === a.formerId;
}

/**
 * Whether two testbeds were fingerprinted the same way, so that their ids can
 * be compared at all: the runner's own reading, or a harness's record of its
 * machine (`source`, e.g. "pyperf metadata", whose id hashes what the harness
 * wrote). A baseline of pyperf files and a head measured by the runner may be
 * one machine or two; their ids cannot tell, so neither is claimed.
 */
export function comparableTestbeds(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  return (a['source'] ?? 'runner') === (b['source'] ?? 'runner');
}

export interface TestbedMismatch {
  baselineTestbed: string;
  currentTestbed: string;
  /** What the gate was told to do: flag (default), compare, or refuse. */
  mode: 'flag' | 'compare' | 'refuse';
}

/** What each mode does, in its own words: a message never describes another mode. */
const TESTBED_CONSEQUENCE: Record<TestbedMismatch['mode'], string> = {
  flag: 'regressions are shown but do not fail the gate; budgets still do',
  compare: 'regressions still fail the gate (--testbed-mismatch compare)',
  refuse: 'the comparison is refused (--testbed-mismatch refuse): nothing was compared',
};

/** What the mismatch means for this run and what to do about it. */
export function testbedMismatchText(m: TestbedMismatch): string {
  const consequence = TESTBED_CONSEQUENCE[m.mode];
  return `the baseline was measured on testbed ${m.baselineTestbed} and this run on ${m.currentTestbed}: differences may come from the machine, not the code, so ${consequence}. Re-measure the baseline on this runner (mode: main), or compare interleaved (perf-gate run --ab).`;
}

/** Thrown by the gate when testbeds differ and the options refuse that; carries both testbed ids. */
export class TestbedMismatchError extends Error {
  override readonly name = 'TestbedMismatchError';
  readonly baselineTestbed: string;
  readonly currentTestbed: string;
  readonly mode: TestbedMismatch['mode'];
  constructor(mismatch: TestbedMismatch) {
    super(testbedMismatchText(mismatch));
    this.baselineTestbed = mismatch.baselineTestbed;
    this.currentTestbed = mismatch.currentTestbed;
    this.mode = mismatch.mode;
  }
}
