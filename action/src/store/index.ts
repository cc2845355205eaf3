/**
 * store/ moves results in and out: ResultSet files written atomically (a
 * stored baseline is never half-written), and export to other tools' formats
 * (Bencher Metric Format). It never decides a verdict.
 */
export * from './result-set-file.js';
export * from './bmf.js';
export * from './merge.js';
