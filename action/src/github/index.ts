/**
 * github/ owns every conversation with GitHub's REST API: a small client
 * interface given a base URL and a token (GITHUB_API_URL honoured), retries
 * for 5xx and secondary rate limits, the sticky pull request comment, the
 * check run with batched annotations, the fork-safety decision and the
 * merge queue's group from the event payload — and the action's other outward HTTP: notification webhooks
 * (webhook.ts), all through the runner's proxy (http.ts). It must never decide
 * or change a verdict, or render a report: it is handed finished text and a
 * verdict. The one environment it reads is the proxy's, through
 * @actions/http-client, exactly as the runner's own actions do.
 */
export * from './client.js';
export * from './retry.js';
export * from './sticky-comment.js';
export * from './check-run.js';
export * from './fork.js';
export * from './webhook.js';
export * from './http.js';
export * from './merge-group.js';
