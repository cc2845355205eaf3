/**
 * store/ owns baselines: choosing the one a run is compared with (by commit
 * and testbed, through the BaselineStore interface), reading it through an
 * injected reader, and writing runs atomically (a stored baseline is never
 * half-written); plus merging shards and export to other tools' formats
 * (Bencher Metric Format). It imports only model/: it never parses harness
 * formats (adapters/) and never decides a verdict.
 */
export * from './baseline-store.js';
export * from './folder-store.js';
export * from './result-set-file.js';
export * from './bmf.js';
export * from './merge.js';
export * from './write-policy.js';
