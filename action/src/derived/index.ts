/**
 * derived/ adds metrics computed from others of the same benchmark
 * (`derived: { ports_per_sec: 10000 / time }` in perf-gate.yml): one ResultSet's
 * benchmarks in, the same benchmarks with the new metrics out, before the gate
 * sees them. The expression grammar is its own small parser, never `eval`.
 *
 * It must never read files, decide a verdict or format a report; its warnings
 * (a value that is not finite, a metric applied to nothing) are returned for
 * the caller to print.
 */
export { applyDerived, compileDerived, inferUnit, type CompiledDerived, type DerivedResult } from './derived-metrics.js';
export { evaluate, ExpressionError, metricsOf, parseExpression, type Expr } from './expression.js';
