/**
 * stats/ owns pure numerical methods over arrays of numbers: descriptive
 * statistics, rank tests, intervals, multiple-comparison control, power and
 * resampling. It must never know about benchmarks, units, files, logging or
 * anything else in the project (it imports nothing from it); thresholds come
 * in through options records with documented defaults. The gate picks and
 * combines these methods (gate/compare/).
 */
export * from './descriptive.js';
export * from './ranks.js';
export * from './normal.js';
export * from './u-distribution.js';
export * from './mann-whitney.js';
export * from './pairwise-selection.js';
export * from './hodges-lehmann.js';
export * from './wilcoxon-signed-rank.js';
export * from './benjamini-hochberg.js';
export * from './welch.js';
export * from './power.js';
export * from './dispersion.js';
export * from './upper-tail.js';
export * from './prng.js';
export * from './bootstrap.js';
export * from './between-run-drift.js';
export * from './walsh-selection.js';
export * from './levels.js';
export * from './folded-rounds.js';
