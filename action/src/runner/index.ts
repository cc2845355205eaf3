/**
 * runner/ turns perf-gate.yml's suites into harness output files and
 * ResultSets: it spawns `build` and `run` (bash -c, one process group each,
 * timeouts), substitutes placeholders as single shell words, expands sweeps,
 * selects a shard, runs interleaved A/B rounds in a git worktree, and knows
 * the machine (preflight, testbed fingerprint, perf-gate's own timer).
 *
 * It must never decide a verdict (A/B adaptivity asks an injected
 * classifier — the gate — which rows are still open), choose adapters itself
 * (an injected parser, the adapter registry, reads the files), or write
 * baselines and reports (the CLI does). Every process starts through the
 * Spawner interface, so tests can replace measurements with a mock.
 */
export { runSuite, runSuites } from './run-suite.js';
export { runAb, type AbCheckouts, type AbContext, type AbOutcome, type Classifier } from './ab.js';
export { buildSuite, invoke, type Invocation, type InvocationOutcome, type OutputParser, type RunnerContext, type Side } from './invoke.js';
export { processSpawner, type SpawnRequest, type SpawnResult, type Spawner } from './spawn.js';
export { parseShard, selectShard, type Shard } from './shard.js';
export { sweepPoints, pointSuffix, pointLabel, type SweepPoint } from './sweep.js';
export { logProgress, progressHeader, formatDuration, type Progress, type ProgressOptions } from './progress.js';
export { addBaseWorktree, headCommit, repositoryRoot, type BaseCheckout } from './worktree.js';
