/**
 * The action's settings: the one typed literal its inputs and the runner's
 * environment become (read-settings.ts reads them), the values each input
 * accepts, and what is derived from the settings alone (the repository, the
 * run's page, the data branch's credentials, the suites' environment).
 */
import { InputError } from '../model/index.js';
import type { CommentMode } from '../github/sticky-comment.js';
import type { RepoRef } from '../github/client.js';
import type { WebhookTarget } from '../github/webhook.js';
import { FAIL_ON, INCONCLUSIVE, type FailOn, type InconclusivePolicy } from '../pipeline/index.js';

export type Mode = 'pr' | 'main' | 'release' | 'report' | 'command';
export type { FailOn };
export { FAIL_ON, INCONCLUSIVE };

export const MODES: readonly Mode[] = ['pr', 'main', 'release', 'report', 'command'];
export const COMMENT_MODES: readonly CommentMode[] = ['always', 'on-change', 'never'];
export const CONFIRM = ['auto', 'interleaved', 'off'] as const;
export const TESTBED_MISMATCH = ['flag', 'compare', 'refuse'] as const;
export const PREFLIGHT = ['warn', 'strict', 'off'] as const;
export const ALERT = ['summary', 'issue', 'off'] as const;
export const NOTIFY = ['off', 'slack', 'json'] as const;

/** The step's environment variables that hold the webhook; secrets, so never inputs (inputs are logged in debug). */
export const WEBHOOK_URL_VARIABLE = 'PERF_GATE_WEBHOOK_URL';
export const WEBHOOK_SECRET_VARIABLE = 'PERF_GATE_WEBHOOK_SECRET';

export interface Settings {
  /** What this run is for: gate a pull request, record main's baseline, gate a release, or post a two-stage report. */
  mode: Mode;
  /** Absolute path of perf-gate.yml. */
  config: string;
  /** Budget files or folders (absolute); empty means the config's `budgets:`. */
  budgets: string[];
  /** Baseline ResultSets or harness outputs (absolute); empty means the config's `baselines:`. */
  baseline: string[];
  /** Existing results to gate instead of running the suites (absolute); empty means run them. */
  results: string[];
  /** Token for the GitHub API; empty means no API calls (report files only). */
  token: string;
  /** When to write the pull request comment. */
  comment: CommentMode;
  /** What fails the step: the gate's verdict, also suspects that could not be confirmed, also warnings, or nothing. */
  failOn: FailOn;
  /** Create a check run with the verdict and annotations. */
  checkRun: boolean;
  /** Names the gate: the check run, and the sticky comment's marker (one comment per gate). */
  gateName: string;
  /** Let a fork's pull request run on a self-hosted runner. */
  allowForkPullRequests: boolean;
  /** Login whose comments count as the gate's own; empty means ask GitHub (GET /user). */
  commentAuthor: string;
  /** Absolute folder for reports, results and the two-stage handoff. */
  outputDir: string;
  /** mode report: folder holding the downloaded handoff; empty means download the artifact through the API. */
  reportFrom: string;
  /** Name of the two-stage artifact. */
  artifactName: string;
  /** Check the runner before measuring: warn (annotate), strict (fail on a warning), off. */
  preflight: (typeof PREFLIGHT)[number];
  /**
   * Interleaved A/B instead of a stored baseline: the git ref to measure
   * against ("base" = the pull request's base commit); empty means off.
   */
  ab: string;
  /**
   * The two-stage verdict: `interleaved` measures the screen's suspects again
   * against the base commit (mode pr), and confirms a main-branch alert's step
   * before it opens an issue; `off` lets one stage decide; `auto` follows
   * perf-gate.yml's `confirm:` (interleaved unless it says off).
   */
  confirm: (typeof CONFIRM)[number];
  /** Build the base commit for confirmation in a fork pull request's checkout too (a disposable runner). */
  confirmForks: boolean;
  /** mode main with a history: report new regressions in the job summary, also as GitHub issues, or not at all. */
  alert: (typeof ALERT)[number];
  /** The last runs whose change points count as new for the alert. */
  alertWindow: number;
  /** With alert: issue, bisect each newly opened alert's commit range and comment the culprit on the issue. */
  alertBisect: boolean;
  /**
   * Where main's new regressions and a release's no-go are told: a Slack
   * incoming webhook or a signed JSON endpoint; null: nowhere. The URL and
   * secret come from the step's env (secrets), never from inputs.
   */
  webhook: WebhookTarget | null;
  /** mode command: the label whose adding accepts every regressed row of the last run (removing it withdraws that). */
  acceptLabel: string;
  /** mode command: the label whose adding starts a run, like `/perf-gate run` (with the same permission check). */
  runLabel: string;
  /** mode command: the benchmark workflow's file that `/perf-gate run` starts (workflow_dispatch); empty: the command is refused. */
  runWorkflow: string;
  /** What an inconclusive row does to the check: nothing (pass), a neutral check run, or a failure. */
  inconclusive: InconclusivePolicy;
  /** flag, compare or refuse results measured on a different testbed than the baseline (see GateOptions). */
  testbedMismatch: (typeof TESTBED_MISMATCH)[number];
  /** Absolute folder the suites and relative paths start from. */
  workingDirectory: string;
  /** Facts of the runner and the triggering event. */
  github: GitHubEnvironment;
}

export interface GitHubEnvironment {
  apiUrl: string;
  serverUrl: string;
  /** owner/name. */
  repository: string;
  eventName: string;
  /** Path of the event payload; empty when absent. */
  eventPath: string;
  sha: string;
  ref: string;
  runId: string;
  /** "github-hosted" or "self-hosted" (unset on old runners, treated as self-hosted). */
  runnerEnvironment: string;
  workspace: string;
  runnerTemp: string;
}

/**
 * Variables a suite never gets besides the INPUT_* ones: the tokens, the
 * descriptor the token came on, and the runner's file commands (with
 * GITHUB_OUTPUT, GITHUB_ENV, GITHUB_STEP_SUMMARY... a benchmark could forge
 * the step's outputs, the verdict in the job summary, or later steps' env).
 */
const SUITE_WITHHELD: ReadonlySet<string> = new Set([
  'PERF_GATE_NODE',
  'PERF_GATE_TOKEN_FD',
  WEBHOOK_URL_VARIABLE,
  WEBHOOK_SECRET_VARIABLE,
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'ACTIONS_RUNTIME_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
  'GITHUB_OUTPUT',
  'GITHUB_ENV',
  'GITHUB_PATH',
  'GITHUB_STATE',
  'GITHUB_STEP_SUMMARY',
]);

/**
 * The environment the suites' build and run commands get: the runner's, minus
 * the action's inputs (INPUT_GITHUB_TOKEN above all) and any token variable or file command, so
 * benchmark code — possibly a contributor's — never sees a credential the
 * action was given.
 */
export function suiteEnvironment(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(env)) {
    if (key.startsWith('INPUT_') || SUITE_WITHHELD.has(key)) continue;
    out[key] = value;
  }
  return out;
}

/** The repository the action talks to, from GITHUB_REPOSITORY. */
export function repoRef(settings: Settings): RepoRef {
  const [owner, repo] = settings.github.repository.split('/');
  if (!owner || !repo) throw new InputError('GITHUB_REPOSITORY', 'is not set; the action needs owner/name to talk to GitHub');
  return { owner, repo };
}

/** The workflow run's page (its checks, logs and artifacts), or null outside a workflow run. */
export function workflowRunUrl(github: Settings['github']): string | null {
  return github.runId && github.repository ? `${github.serverUrl}/${github.repository}/actions/runs/${github.runId}` : null;
}

/**
 * The github-token for a data branch's fetch and push, handed to those git
 * processes alone: the checkout keeps no credentials (persist-credentials:
 * false), so the benchmarks never find a token in .git/config.
 */
export function dataBranchAuth(settings: Settings): { auth?: { token: string; serverUrl: string } } {
  return settings.token ? { auth: { token: settings.token, serverUrl: settings.github.serverUrl } } : {};
}
