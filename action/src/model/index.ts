/**
 * model/ owns the shapes that flow between the layers: ResultSet (what a run
 * produced, what a baseline stores), the metric vocabulary, units, and the one
 * error type for unusable input. It must never do I/O or decide a verdict.
 */
export * from './result-set.js';
export * from './input-error.js';
export * from './metrics.js';
export * from './units.js';
export * from './nearest-name.js';
