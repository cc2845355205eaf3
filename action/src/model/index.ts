/**
 * model/ owns the shapes that flow between the layers, so no layer has to
 * import sideways or up to share them: ResultSet (what a run produced, what a
 * baseline stores), the metric vocabulary, units, budgets and how the rule
 * for one benchmark × metric is resolved, a row's key and status, the BMF
 * measure table, the run-template placeholder grammar, and the errors for
 * unusable input (InputError, TestbedMismatchError).
 *
 * It imports nothing from the project. It must never do I/O, read the
 * environment or decide a verdict.
 */
export * from './result-set.js';
export * from './input-error.js';
export * from './metrics.js';
export * from './units.js';
export * from './budgets.js';
export * from './glob.js';
export * from './derived-metric.js';
export * from './row.js';
export * from './bmf-measures.js';
export * from './command-template.js';
export * from './testbed-mismatch.js';
export * from './nearest-name.js';
export * from './large-arrays.js';
export * from './environment.js';
export * from './profile.js';
export * from './cut-text.js';
export * from './notification.js';
export * from './alert-mark.js';
