/**
 * Is the second sample more spread out than the first? A rank version of the
 * Brown–Forsythe test: each sample's absolute deviations from its own median,
 * compared with a one-sided Mann–Whitney test. Centring on the median makes it
 * robust to the skew of benchmark times, and working on deviations makes it
 * blind to a pure shift of location. Pass log values to compare relative
 * spread (scale-free).
 *
 * Not exactly distribution-free (the medians are estimated), so callers use a
 * strict alpha; its false-alarm rate is measured in the tests. Wrong tool for
 * a few extreme runs in an otherwise steady sample: the ranks of a handful of
 * large deviations move little, so count the upper tail as well (upper-tail.ts).
 * Reference: Brown & Forsythe (1974), JASA 69:364; Conover, Johnson & Johnson
 * (1981), Technometrics 23:351.
 */
import { median, medianOfSorted, sortedAbsoluteDeviations, sortedCopy } from './descriptive.js';
import fCdf from '@stdlib/stats-base-dists-f-cdf';
import { mannWhitney } from './mann-whitney.js';

export interface DispersionResult {
  /** One-sided p-value for "y spreads more than x". */
  p: number;
  /** Spread of y over spread of x (median absolute deviations, or standard deviations for the F test). */
  ratio: number;
}

export function absoluteDeviations(values: readonly number[] | Float64Array): Float64Array {
  const m = median(values);
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = Math.abs((values[i] as number) - m);
  return out;
}

export function widerSpread(x: readonly number[] | Float64Array, y: readonly number[] | Float64Array, options: { presorted?: boolean } = {}): DispersionResult {
  const dx = sortedAbsoluteDeviations(options.presorted ? x : sortedCopy(x));
  const dy = sortedAbsoluteDeviations(options.presorted ? y : sortedCopy(y));
  return widerSpreadOfDeviations(dx, dy);
}

/** widerSpread() from each sample's ascending absolute deviations (see sortedAbsoluteDeviations). */
export function widerSpreadOfDeviations(dx: Float64Array, dy: Float64Array): DispersionResult {
  const mx = medianOfSorted(dx);
  const my = medianOfSorted(dy);
  const ratio = mx > 0 ? my / mx : my > 0 ? Infinity : 1;
  return { p: mannWhitney(dy, dx, { alternative: 'greater', presorted: true }).p, ratio };
}

/**
 * One-sided F test that y's variance exceeds x's, from summaries only (n and
 * variance), for harnesses that report no samples. Very sensitive to
 * non-normality, hence for log values and a strict alpha only.
 * p = P(F(ny−1, nx−1) ≥ s²y/s²x), computed as the lower tail of the reciprocal.
 */
export function varianceRatioTest(x: { variance: number; n: number }, y: { variance: number; n: number }): DispersionResult {
  const ratio = x.variance > 0 ? y.variance / x.variance : y.variance > 0 ? Infinity : 1;
  if (x.n < 2 || y.n < 2 || !Number.isFinite(ratio)) return { p: ratio === Infinity ? 0 : NaN, ratio: Math.sqrt(ratio) };
  if (ratio === 0) return { p: 1, ratio: 0 };
  return { p: fCdf(1 / ratio, x.n - 1, y.n - 1), ratio: Math.sqrt(ratio) };
}
