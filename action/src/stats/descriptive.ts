/**
 * Descriptive statistics of one sample. Inputs are never modified; functions
 * that need order copy first. Empty input yields NaN rather than throwing, so a
 * caller can show odd data instead of failing.
 */

/** Ascending copy as a Float64Array (numeric sort, no string comparison). */
export function sortedCopy(values: readonly number[] | Float64Array): Float64Array {
  const out = new Float64Array(values);
  sortNumbers(out);
  return out;
}

/**
 * Sorts a Float64Array ascending in place. For the sample sizes of benchmarks
 * (tens to hundreds) a plain quicksort with insertion sort below 24 elements
 * is several times faster than the built-in typed-array sort; NaN sorts last
 * as with the built-in (which then does the work).
 */
export function sortNumbers(a: Float64Array): Float64Array {
  for (let i = 0; i < a.length; i++) {
    if (Number.isNaN(a[i])) {
      a.sort();
      return a;
    }
  }
  quicksort(a, 0, a.length - 1);
  return a;
}

function quicksort(a: Float64Array, left: number, right: number): void {
  // Recurse into the smaller part, loop on the larger: stack depth O(log n).
  while (right - left > 24) {
    const mid = (left + right) >> 1;
    // Median of three as pivot.
    const x = a[left] as number;
    const y = a[mid] as number;
    const z = a[right] as number;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = left;
    let j = right;
    while (i <= j) {
      while ((a[i] as number) < pivot) i++;
      while ((a[j] as number) > pivot) j--;
      if (i <= j) {
        const t = a[i] as number;
        a[i] = a[j] as number;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (j - left < right - i) {
      quicksort(a, left, j);
      left = i;
    } else {
      quicksort(a, i, right);
      right = j;
    }
  }
  for (let i = left + 1; i <= right; i++) {
    const v = a[i] as number;
    let j = i - 1;
    while (j >= left && (a[j] as number) > v) {
      a[j + 1] = a[j] as number;
      j--;
    }
    a[j + 1] = v;
  }
}

export function mean(values: readonly number[] | Float64Array): number {
  if (values.length === 0) return NaN;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Sample variance (n − 1 denominator), two-pass for accuracy; NaN below two values. */
export function variance(values: readonly number[] | Float64Array): number {
  const n = values.length;
  if (n < 2) return NaN;
  const m = mean(values);
  let ss = 0;
  let comp = 0;
  for (const v of values) {
    ss += (v - m) * (v - m);
    comp += v - m;
  }
  return (ss - (comp * comp) / n) / (n - 1);
}

export function stddev(values: readonly number[] | Float64Array): number {
  return Math.sqrt(variance(values));
}

/** Median of an already ascending array: the middle value, or the mean of the two middle values. */
export function medianOfSorted(sorted: Float64Array | readonly number[]): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const h = n >> 1;
  const hi = sorted[h] as number;
  return n % 2 === 1 ? hi : ((sorted[h - 1] as number) + hi) / 2;
}

export function median(values: readonly number[] | Float64Array): number {
  return medianOfSorted(sortedCopy(values));
}

/**
 * Quantile of an ascending array by linear interpolation between order
 * statistics (Hyndman–Fan type 7, the default of R, numpy and Excel).
 */
export function quantileOfSorted(sorted: Float64Array | readonly number[], q: number): number {
  const n = sorted.length;
  if (n === 0 || !(q >= 0 && q <= 1)) return NaN;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const a = sorted[lo] as number;
  if (lo + 1 >= n) return a;
  return a + (h - lo) * ((sorted[lo + 1] as number) - a);
}

/** Everything a report shows about one side. */
export interface Description {
  n: number;
  mean: number;
  median: number;
  /** Sample standard deviation; NaN below two values. */
  stddev: number;
  min: number;
  max: number;
}

export function describe(values: readonly number[] | Float64Array): Description {
  return describeSorted(sortedCopy(values));
}

/** describe() of an array that is already ascending (no copy). */
export function describeSorted(s: Float64Array | readonly number[]): Description {
  const n = s.length;
  return {
    n,
    mean: mean(s),
    median: medianOfSorted(s),
    stddev: stddev(s),
    min: n > 0 ? (s[0] as number) : NaN,
    max: n > 0 ? (s[n - 1] as number) : NaN,
  };
}

/**
 * |v − median| of an ascending array, returned ascending, in O(n): the
 * deviations fall to the left of the median and rise to its right, so the
 * two runs are merged outward from the middle instead of sorted.
 */
export function sortedAbsoluteDeviations(sorted: Float64Array | readonly number[]): Float64Array {
  const n = sorted.length;
  const out = new Float64Array(n);
  const med = medianOfSorted(sorted);
  let left = (n >> 1) - 1 + (n % 2); // last index on the left run (the middle one when odd)
  let right = left + 1;
  if (n % 2 === 1) {
    out[0] = Math.abs((sorted[left] as number) - med);
    left--;
  }
  for (let o = n % 2; o < n; o++) {
    const dl = left >= 0 ? med - (sorted[left] as number) : Infinity;
    const dr = right < n ? (sorted[right] as number) - med : Infinity;
    if (dl <= dr) {
      out[o] = dl;
      left--;
    } else {
      out[o] = dr;
      right++;
    }
  }
  return out;
}
