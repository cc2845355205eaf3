import type { ComparisonNote, LevelsSeen, MethodUsed, RowReason, ScalingFitFacts, TestedFacts } from '../gate/types.js';
import { formatValue, scaleFor } from './format.js';
import { pct, pValue, signedPct } from './reason-numbers.js';

/**
 * The one place a row's reason becomes words: every reporter (terminal,
 * Markdown, JSON, HTML, annotations) shows this sentence, so they all say
 * the same thing. The gate records the facts (gate/reason.ts); the wording,
 * and the precision of its numbers, are decided here alone.
 */
export function reasonText(reason: RowReason): string {
  switch (reason.code) {
    case 'text':
      return reason.text;
    case 'benchmark-failed':
      return `the benchmark failed: ${reason.message}`;
    case 'metric-missing':
      return `the current run has no ${reason.metric} metric for this benchmark`;
    case 'benchmark-missing':
      return 'the benchmark is in the baseline but not in the current run';
    case 'baseline-failed':
      return 'the baseline run of this benchmark failed: nothing to compare with';
    case 'baseline-failure-gone':
      return `${reasonText(reason.comparison)} The baseline run of this benchmark failed, this run passes.`;
    case 'no-baseline':
      return 'no baseline for this benchmark';
    case 'no-usable-values':
      return `${capital(methodText(reason.method))}: no usable values to compare${notesText(reason.notes)}.`;
    case 'tolerance-only':
      return `${capital(methodText(reason.method))}: the ${signedPct(reason.change)} change is ${reason.beyond ? 'beyond' : 'within'} the ${pct(reason.tolerance)} tolerance${notesText(reason.notes)}.`;
    case 'cannot-reach-significance': {
      const what = reason.method.id === 'wilcoxon-signed-rank' ? 'rounds are' : 'samples per side are';
      return `${capital(methodText(reason.method))} cannot reach significance at α = ${reason.alpha} with ${reason.baselineN} and ${reason.currentN} samples: at least ${reason.needed} ${what} needed${notesText(reason.notes)}.`;
    }
    case 'significant-change':
      return `${lead(reason)}: ${pText(reason)} and the ${intervalText(reason)} clears the ${pct(reason.noise)} noise floor, with the ${signedPct(reason.change)} estimate beyond the ${pct(reason.tolerance)} tolerance${notesText(reason.notes)}.`;
    case 'change-ruled-out':
      return `${lead(reason)}: the ${intervalText(reason)} lies within ±${pct(reason.tolerance)}, so a change of the tolerance's size is ruled out, ${pText(reason)}${notesText(reason.notes)}.`;
    case 'shift-within-tolerance':
      return `${lead(reason)}: ${pText(reason)} finds a real shift, but the ${signedPct(reason.change)} estimate is within the ${pct(reason.tolerance)} tolerance${notesText(reason.notes)}.`;
    case 'level-unknown': {
      const other = reason.other.ci ? ` ${bounds(reason.other.ci)}` : '';
      return `${lead(reason)}: ${pText(reason)}, ${signedPct(reason.change)} ${bounds(reason.ci ?? [reason.change, reason.change])}: the side in one level is neither of the other side's, and against the other level it reads ${signedPct(reason.other.change)}${other}; which level it came from cannot be told from these values, unless that side draws the other level too${notesText(reason.notes)}.`;
    }
    case 'not-significant':
    case 'within-noise-floor': {
      const why =
        reason.code === 'not-significant'
          ? `${pText(reason)} is not significant at α = ${reason.alpha} and the ${intervalText(reason)} ${beyondTolerance(reason) ? 'lies beyond' : 'still allows a change beyond'} ±${pct(reason.tolerance)}`
          : `${pText(reason)} is significant but the ${intervalText(reason)} does not clear the ${pct(reason.noise)} noise floor`;
      const unit = reason.method.id === 'wilcoxon-signed-rank' ? 'paired rounds' : 'samples per side';
      // The interval already lies beyond the tolerance: only the significance level stands between the row and a verdict.
      const onlyAlpha = reason.code === 'not-significant' && beyondTolerance(reason);
      const next = onlyAlpha
        ? `; only α holds it back${reason.adjusted ? " (p is adjusted for the suite's other rows)" : ''}, so more ${unit} will decide it`
        : reason.samplesNeeded === null
          ? `; more samples will not decide it at this drift, interleave the runs (paired rounds)${configuredDrift(reason.method) ? " or keep a run history so this runner's own drift is learned" : ''}`
          : `; about ${reason.samplesNeeded} ${unit} would decide a ${pct(reason.tolerance)} change`;
      return `${lead(reason)}: ${why}${next}${notesText(reason.notes)}.`;
    }
    case 'scaling-too-few-points':
      return `${reason.usable} usable value${reason.usable === 1 ? '' : 's'} of ${reason.param}${skippedText(reason.skipped, reason.metric)}; a scaling exponent needs at least ${reason.minPoints}`;
    case 'scaling-within-limit': {
      const { min, max } = reason.limit;
      const bounds = [min !== undefined ? `≥ ${min}` : '', max !== undefined ? `≤ ${max}` : ''].filter(Boolean).join(' and ');
      return `${fitText(reason.fit)}: within the limit ${bounds}`;
    }
    case 'scaling-beyond-limit':
      return `${fitText(reason.fit)}: ${reason.side === 'above' ? 'above the maximum' : 'below the minimum'} exponent ${reason.bound}`;
    case 'scaling-unsure':
      return `${fitText(reason.fit)}: the estimate is ${reason.side} ${reason.bound} but the interval includes it; add parameter values or runs`;
  }
}

/** The method as the sentence names it. */
function methodText(method: MethodUsed): string {
  switch (method.id) {
    case 'exact':
      return 'deterministic count compared directly';
    case 'single-value':
      return 'a single value on at least one side, so no test is possible';
    case 'not-compared':
      return 'not compared';
    case 'mann-whitney':
      return `Mann–Whitney (${method.exact ? 'exact' : 'normal approximation'}) with a Hodges–Lehmann interval${method.drift > 0 ? ` widened for ${driftText(method.drift, method.driftRuns)}` : ''}`;
    case 'welch-log':
      return `Welch's t-test on ${method.logScale ? 'the log scale' : 'raw values'} from mean, standard deviation and n`;
    case 'wilcoxon-signed-rank':
      return `Wilcoxon signed-rank on ${method.rounds} paired rounds (${method.exact ? 'exact' : 'normal approximation'}) with a Hodges–Lehmann interval`;
    case 'levels':
      return levelsText(method);
    case 'folded-rounds':
      return `flips between two levels ${pct(method.ratio - 1)} apart (${method.folded} of ${method.rounds} rounds drew different levels on their two sides); each round's ratio with the flip taken out, by ${methodText(method.inner)}`;
  }
}

/**
 * "flips between 12.1 ms and 14.8 ms (current: 40 % of runs in the slow
 * level; baseline: 65 %); compared level by level, the slow level by …".
 */
function levelsText(method: Extract<MethodUsed, { id: 'levels' }>): string {
  const values = [method.baseline, method.current].flatMap((l) => ('one' in l ? [l.one] : [l.fast, l.slow]));
  const scale = scaleFor(method.unit, values);
  const show = (v: number): string => formatValue(v, scale);
  const flipping = 'fast' in method.current ? method.current : (method.baseline as Extract<LevelsSeen, { fast: number }>);
  const share = (side: string, l: LevelsSeen): string =>
    'one' in l ? `${side}: all in one level, ${show(l.one)}` : `${side}: ${pct(l.slowShare)} of runs in the slow level`;
  const compared: Record<typeof method.compared, string> = {
    both: `fast with fast and slow with slow, each by ${methodText(method.inner)}, pooled`,
    fast: `the fast level, the one both drew, by ${methodText(method.inner)}`,
    slow: `the slow level, the one both drew, by ${methodText(method.inner)}`,
    rounds: `each round's processes fast with fast and slow with slow, by ${methodText(method.inner)}`,
    unshared: `fast with fast and slow with slow, each side's levels as it drew them, each by ${methodText(method.inner)}, pooled; ${unsharedText(method, show)}`,
  };
  return `flips between ${show(flipping.fast)} and ${show(flipping.slow)} (${share('current', method.current)}; ${share('baseline', method.baseline)}); compared level by level: ${compared[method.compared]}`;
}

/** "the baseline's slow level (15.0 ms) and the current's slow level (17.3 ms) hold no value of the other side". */
function unsharedText(method: Extract<MethodUsed, { id: 'levels' }>, show: (v: number) => string): string {
  const levels = (method.unshared ?? []).map((u) => `the ${u.side}'s ${u.rank} level (${show(u.level)})`);
  const list = levels.length > 1 ? `${levels.slice(0, -1).join(', ')} and ${levels.at(-1)!}` : levels[0]!;
  return `${list} ${levels.length > 1 ? 'hold' : 'holds'} no value of the other side`;
}

/** A drift that is the budgets' guess, not this runner's history. */
function configuredDrift(method: MethodUsed): boolean {
  return method.id === 'mann-whitney' && method.drift > 0 && method.driftRuns === null;
}

/** "±3.1 % between-run drift learned from 18 runs", or "the configured 2 % between-run drift". */
function driftText(drift: number, runs: number | null): string {
  return runs === null ? `the configured ${pct(drift)} between-run drift` : `±${pct(drift)} between-run drift learned from ${runs} runs`;
}

function lead(facts: TestedFacts): string {
  return capital(methodText(facts.method));
}

function pText(facts: TestedFacts): string {
  return `p ${pValue(facts.p)}${facts.adjusted ? ' (BH-adjusted)' : ''}`;
}

/** Whether the whole interval lies beyond the tolerance (then only the test's significance is missing). */
function beyondTolerance(facts: TestedFacts): boolean {
  return facts.ci !== null && (facts.ci[0] > facts.tolerance || facts.ci[1] < -facts.tolerance);
}

function intervalText(facts: TestedFacts): string {
  return facts.ci ? `${pct(facts.confidence)} interval ${bounds(facts.ci)}` : '';
}

/** "[−3.1%, +1.2%]". */
function bounds(ci: readonly [number, number]): string {
  return `[${signedPct(ci[0])}, ${signedPct(ci[1])}]`;
}

/** The notes as a parenthesised tail, "" when there are none. */
function notesText(notes: readonly ComparisonNote[]): string {
  if (notes.length === 0) return '';
  const words = notes.map((note) => {
    switch (note.code) {
      case 'non-finite-ignored':
        return `${note.count} non-finite sample(s) ignored`;
      case 'rounds-not-aligned':
        return 'rounds not aligned, compared as independent samples';
      case 'zero-time-samples':
        return `${note.count} time sample(s) of 0 s: the harness timed nothing (it clamps after subtracting its own overhead), so no change can be a percentage of them; give the benchmark more work per iteration`;
    }
  });
  return ` (${words.join('; ')})`;
}

/** "time grows as n^2.00 (95 % CI 1.97…2.03, 5 points)", with any skipped points. */
function fitText(fit: ScalingFitFacts): string {
  const interval = `${Math.round(fit.confidence * 100)} % CI ${fit.ci[0].toFixed(2)}…${fit.ci[1].toFixed(2)}`;
  return `${fit.metric} grows as ${fit.param}^${fit.exponent.toFixed(2)} (${interval}, ${fit.points} points)${skippedText(fit.skipped, fit.metric)}`;
}

function skippedText(skipped: number, metric: string): string {
  return skipped > 0 ? ` (${skipped} point${skipped === 1 ? '' : 's'} failed or without ${metric}, left out)` : '';
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
