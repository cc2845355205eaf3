/**
 * Thirty interleaved rounds measured by the detection benchmark
 * (bench/detect/data/detect-full.json: the quiet load, the head doing 10 %
 * more work), one process a side a round, in ms: every round near +10 %,
 * three of the head's processes stalled. A steady change, not a flip.
 */
export const STALLED_BASE_MS = [
  20.1, 20.7, 21.1, 20.9, 21.0, 20.2, 20.1, 20.1, 20.3, 20.3, 20.4, 20.1, 21.5, 20.0, 21.4, 20.0, 20.0, 20.0, 20.0, 20.1, 20.2, 20.1, 19.9, 20.1, 20.0, 20.2,
  20.0, 20.0, 20.1, 20.5,
];
export const STALLED_HEAD_MS = [
  21.9, 23.0, 22.5, 24.8, 22.7, 22.3, 22.4, 22.2, 22.6, 22.4, 22.9, 22.5, 29.3, 22.4, 22.5, 21.5, 22.0, 22.1, 22.3, 22.1, 22.0, 22.0, 27.8, 21.9, 22.2, 22.0,
  29.7, 24.5, 22.1, 22.2,
];

/** Each round's log ratio head / base. */
export function stalledRatios(): number[] {
  return STALLED_BASE_MS.map((b, i) => Math.log(STALLED_HEAD_MS[i]! / b));
}
