/**
 * The log-ratio scale every strategy reports on. Positive quantities (times,
 * rates, bytes) are compared as log(current/baseline), so relative changes
 * are symmetric and unit-free. A side with zero or negative values (custom
 * metrics can have them) falls back to the difference relative to the
 * baseline's magnitude, mapped through log1p so the decision code sees one
 * scale.
 */

/** log(current/baseline) of two single values, handling zeros and signs. */
export function logRatio(baseline: number, current: number): number {
  // Not a number is no change of any size: NaN flows on and the row becomes inconclusive.
  if (Number.isNaN(baseline) || Number.isNaN(current)) return NaN;
  if (baseline === current) return 0;
  if (baseline > 0 && current > 0) return Math.log(current) - Math.log(baseline);
  if (baseline === 0) return current > 0 ? Infinity : -Infinity;
  return relativeToLog((current - baseline) / Math.abs(baseline));
}

/** A relative change (fraction) on the log scale: log1p, −Infinity at or below −100 %. */
export function relativeToLog(change: number): number {
  if (Number.isNaN(change)) return NaN;
  return change > -1 ? Math.log1p(change) : -Infinity;
}

/** The relative change a log ratio stands for: exp(shift) − 1. */
export function logToRelative(shift: number): number {
  return Math.expm1(shift);
}

export function allPositive(values: readonly number[]): boolean {
  for (const v of values) if (!(v > 0)) return false;
  return true;
}

/** Natural logs of the values, as a new typed array. */
export function logs(values: readonly number[] | Float64Array): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = Math.log(values[i] as number);
  return out;
}
