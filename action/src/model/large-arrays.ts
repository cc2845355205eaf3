/**
 * Min, max and append for arrays whose length comes from the input.
 * `Math.min(...values)` and `list.push(...values)` pass every value as a
 * function argument, and V8 runs out of stack somewhere past 100,000 of them
 * (`convert --to bmf` on a pytest-benchmark file with 130,000 samples did), so
 * data-sized arrays go through these loops instead. minOf/maxOf keep
 * Math.min/Math.max's answers: Infinity / -Infinity for no values, NaN when
 * any value is NaN.
 */

/** The smallest value; Infinity for none, NaN if any is NaN (as Math.min). */
export function minOf(values: Iterable<number>): number {
  let min = Number.POSITIVE_INFINITY;
  for (const v of values) {
    if (Number.isNaN(v)) return Number.NaN;
    if (v < min) min = v;
  }
  return min;
}

/** The largest value; -Infinity for none, NaN if any is NaN (as Math.max). */
export function maxOf(values: Iterable<number>): number {
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (Number.isNaN(v)) return Number.NaN;
    if (v > max) max = v;
  }
  return max;
}

/** Appends every item to `target` in order (what `target.push(...items)` does, for any length). */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
