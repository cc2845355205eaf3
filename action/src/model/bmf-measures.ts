/**
 * Bencher Metric Format's built-in measures in perf-gate's vocabulary: the
 * metric each measure is, its base unit, and the factors to and from BMF's
 * units (latency is in nanoseconds). One table read both ways: by the BMF
 * adapter (adapters/bmf.ts) and by the BMF export (store/bmf.ts).
 */
export const BMF_MEASURES: Record<string, { metric: string; unit: string; toBase: number; fromBase: number }> = {
  latency: { metric: 'time', unit: 's', toBase: 1e-9, fromBase: 1e9 },
  throughput: { metric: 'throughput', unit: '1/s', toBase: 1, fromBase: 1 },
  'file-size': { metric: 'file_size', unit: 'B', toBase: 1, fromBase: 1 },
  'build-time': { metric: 'build_time', unit: 's', toBase: 1, fromBase: 1 },
};
