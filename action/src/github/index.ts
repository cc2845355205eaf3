/**
 * github/ owns every conversation with GitHub's REST API: a small client
 * interface given a base URL and a token (GITHUB_API_URL honoured), retries
 * for 5xx and secondary rate limits, the sticky pull request comment, the
 * check run with batched annotations, and the fork-safety decision from the
 * event payload. It must never decide or change a verdict, read the
 * environment, or render a report: it is handed finished text and a verdict.
 */
export * from './client.js';
export * from './retry.js';
export * from './sticky-comment.js';
export * from './check-run.js';
export * from './fork.js';
