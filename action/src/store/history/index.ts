/**
 * store/history/ keeps every run of the base branch, per testbed, in an
 * append-only store (a local folder, or a data branch of a git repository)
 * and chooses a comparison's baseline from it (merge base, else the nearest
 * first-parent ancestor with a run; previous release tag for releases). It
 * never decides a verdict, never reads another testbed's runs into a
 * baseline, and never checks out or touches the project's working tree.
 */
export * from './layout.js';
export * from './codec.js';
export * from './backend.js';
export * from './history-store.js';
export * from './folder-store.js';
export * from './git-branch-store.js';
export * from './select.js';
export * from './pool.js';
export * from './commit-graph.js';
export * from './baseline.js';
export { git, GitCommandError, type GitAuth } from './git.js';
export * from './series-order.js';
