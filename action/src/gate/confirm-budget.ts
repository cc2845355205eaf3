/**
 * What the second stage will cost, estimated before it starts from the first
 * stage's own timings, and which suspects fit its time cap
 * (`confirm-time-cap`). The estimate prices what runAb does:
 *
 * - every suite with a suspect builds twice (base and head), as long as its
 *   build took in the first stage, plus what the second stage adds to it
 *   (Go's test binary compiled once a side: a harness start);
 * - every round runs each side once; a suite that runs only its suspects
 *   pays, per side, a harness start (HARNESS_START_SECONDS, or
 *   BINARY_START_SECONDS for a compiled test binary) and, per
 *   suspect, its share of one plain run (the plain run's time per benchmark,
 *   cut to a short round: Selection.share); a suite that cannot be narrowed
 *   pays one whole plain run per side and round;
 * - a suspect is priced at its first rounds plus the fresh rounds that
 *   confirm a regression: what a real regression costs.
 *
 * Suspects are taken in the order given (the caller puts the likeliest
 * regressions first) while their sum fits the cap; the first one is always
 * measured, since an estimate is only an estimate and the cap still bounds
 * it. Pure.
 */

/** What the first stage spent on a suite: its build and its harness calls (seconds, all repeats and sweep points). */
export interface SuiteTiming {
  build: number;
  run: number;
}

/** What the estimate needs of a suite that holds suspects. */
export interface SuiteCostFacts {
  /** The first stage's timing; null when it has none (the suite was not run here): priced at nothing. */
  timing: SuiteTiming | null;
  /** Benchmarks the first stage measured in the suite (at least 1). */
  benchmarks: number;
  /** The suite's `repeat:` (the plain run called the harness this many times per sweep point). */
  repeat: number;
  /** Only the suspects run (a narrowed harness or commands: suite); false: the whole suite runs every round. */
  narrowed: boolean;
  /** Part of the plain run's time per benchmark a short round takes. */
  share: number;
  /** Rounds per side a confirmed regression takes: first rounds plus confirmation rounds. */
  rounds: number;
  /** Seconds a narrowed round's harness start costs per side (HARNESS_START_SECONDS unless the rounds run a compiled binary). */
  start: number;
  /** Seconds each side's build takes beyond the first stage's (Go's test binary compiled for the rounds), else 0. */
  compile: number;
}

export interface ConfirmBudget {
  /** Estimated seconds of what will be measured. */
  seconds: number;
  /** The benchmarks to measure, in the order given. */
  measured: string[];
  /** The benchmarks left out because the ones before them filled the cap, with what each would have added. */
  left: { benchmark: string; seconds: number }[];
  /** Some suite had no timing, so the estimate leaves it out. */
  partial: boolean;
}

/**
 * What starting a harness costs a round whatever it selects: the process,
 * the toolchain's up-to-date check, a JVM. Measured on the 2-core VM of
 * docs/detection.md: a `go test -bench` round of one benchmark took 0.3 s
 * where its share of the plain run was 0.01 s; `cargo bench` of one
 * criterion benchmark spends 0.2 s before its warm-up; a JMH fork starts a
 * JVM in about 0.5 s. No call is priced above the whole plain call.
 */
export const HARNESS_START_SECONDS = 0.5;

/** A Go test binary compiled once a side (runner/go-test-binary.ts) starts in about 0.01 s here. */
export const BINARY_START_SECONDS = 0.02;

/** Seconds one round of the suite takes per side: the plain run's time per harness call, whole or cut to `count` suspects. */
function roundSeconds(facts: SuiteCostFacts, count: number): number {
  if (!facts.timing) return 0;
  const perCall = facts.timing.run / Math.max(1, facts.repeat);
  if (!facts.narrowed) return perCall;
  const suspects = (perCall / Math.max(1, facts.benchmarks)) * Math.min(count, facts.benchmarks) * facts.share;
  return Math.min(perCall, facts.start + suspects);
}

/**
 * Which suspects (benchmark ids with their suites, likeliest regression
 * first) fit in `cap` seconds, and the estimate for them; see the module
 * comment.
 */
export function budgetConfirmation(
  suspects: readonly { benchmark: string; suite: string }[],
  suites: ReadonlyMap<string, SuiteCostFacts>,
  cap: number,
): ConfirmBudget {
  const taken = new Map<string, number>();
  const measured: string[] = [];
  const left: ConfirmBudget['left'] = [];
  let seconds = 0;
  const costWith = (suite: string, count: number): number => {
    const facts = suites.get(suite);
    if (!facts || count === 0) return 0;
    return 2 * ((facts.timing?.build ?? 0) + facts.compile) + 2 * facts.rounds * roundSeconds(facts, count);
  };
  for (const { benchmark, suite } of suspects) {
    if (measured.includes(benchmark)) continue;
    const count = taken.get(suite) ?? 0;
    const added = costWith(suite, count + 1) - costWith(suite, count);
    if (measured.length > 0 && seconds + added > cap) {
      left.push({ benchmark, seconds: added });
      continue;
    }
    seconds += added;
    measured.push(benchmark);
    taken.set(suite, count + 1);
  }
  const partial = [...taken.keys()].some((s) => suites.get(s)?.timing == null);
  return { seconds, measured, left, partial };
}
