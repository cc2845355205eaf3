/**
 * The ONE place that reads the action's inputs and the runner's environment.
 * action.yml passes every input as an `INPUT_<NAME>` variable (dashes become
 * underscores); the runner adds its GITHUB_* and RUNNER_* variables. Each input
 * is read, defaulted, validated strictly and resolved into one typed Settings
 * literal. Unknown booleans and enum values are errors that name the input and
 * the accepted values; nothing downstream reads process.env.
 */
import { isAbsolute, resolve } from 'node:path';
import { InputError } from '../model/index.js';
import { GATE_NAME, type CommentMode } from '../github/sticky-comment.js';
import type { RepoRef } from '../github/client.js';
import type { WebhookFormat, WebhookTarget } from '../github/webhook.js';
import { FAIL_ON, INCONCLUSIVE, type FailOn, type InconclusivePolicy, type PerfGateConfig } from '../pipeline/index.js';

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

type Env = Readonly<Record<string, string | undefined>>;

/** The environment variable of an input, as action.yml sets it. */
export function inputVariable(name: string): string {
  return `INPUT_${name.replace(/[- ]/g, '_').toUpperCase()}`;
}

function where(name: string): string {
  return `action input "${name}"`;
}

function raw(env: Env, name: string): string {
  return (env[inputVariable(name)] ?? '').trim();
}

function oneOf<T extends string>(env: Env, name: string, accepted: readonly T[], fallback: T): T {
  const value = raw(env, name);
  if (value === '') return fallback;
  if ((accepted as readonly string[]).includes(value)) return value as T;
  throw new InputError(where(name), `"${value.slice(0, 60)}" is not accepted; expected one of: ${accepted.join(', ')}`);
}

/** YAML 1.2 core booleans, the way the runner's own toolkit reads them. */
function bool(env: Env, name: string, fallback: boolean): boolean {
  const value = raw(env, name);
  if (value === '') return fallback;
  if (['true', 'True', 'TRUE'].includes(value)) return true;
  if (['false', 'False', 'FALSE'].includes(value)) return false;
  throw new InputError(where(name), `"${value.slice(0, 60)}" is not a boolean; expected true or false`);
}

/** A list input: one item per line or separated by commas; blank items dropped. */
function list(env: Env, name: string): string[] {
  return raw(env, name)
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** A count of runs, 2 to 1000. */
function runs(env: Env, name: string, fallback: number): number {
  const value = raw(env, name);
  if (value === '') return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 2 || Number(value) > 1000)
    throw new InputError(where(name), `"${value.slice(0, 60)}" is not a number of runs; expected a whole number from 2 to 1000`);
  return Number(value);
}

function path(base: string, p: string): string {
  return isAbsolute(p) ? p : resolve(base, p);
}

/** Reads and validates every input and the runner's environment. Throws InputError naming the input. */
export function readSettings(env: Env, cwd: string): Settings {
  const workspace = env['GITHUB_WORKSPACE'] || cwd;
  const workingDirectory = path(workspace, raw(env, 'working-directory') || '.');
  const runnerTemp = env['RUNNER_TEMP'] || resolve(workingDirectory, '.perf-gate-tmp');
  const gateName = raw(env, 'gate-name') || 'perf-gate';
  if (!GATE_NAME.test(gateName)) {
    throw new InputError(
      where('gate-name'),
      `"${gateName.slice(0, 60)}" is not a gate name; expected 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit`,
    );
  }
  const artifactName = raw(env, 'artifact-name') || 'perf-gate-handoff';
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(artifactName)) {
    throw new InputError(where('artifact-name'), `"${artifactName.slice(0, 60)}" is not an artifact name; expected letters, digits, ".", "_" or "-"`);
  }
  const commentAuthor = raw(env, 'comment-author');
  if (commentAuthor !== '' && !/^[A-Za-z0-9][A-Za-z0-9-]{0,38}(\[bot\])?$/.test(commentAuthor)) {
    throw new InputError(where('comment-author'), `"${commentAuthor.slice(0, 60)}" is not a GitHub login; expected e.g. my-bot or my-app[bot]`);
  }
  const mode = oneOf(env, 'mode', MODES, 'pr');
  const reportFrom = raw(env, 'report-from');
  const apiUrl = (env['GITHUB_API_URL'] || 'https://api.github.com').replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s]+$/.test(apiUrl)) throw new InputError('GITHUB_API_URL', `"${apiUrl.slice(0, 80)}" is not an http(s) URL`);
  const settings: Settings = {
    mode,
    config: path(workingDirectory, raw(env, 'config') || 'perf-gate.yml'),
    budgets: list(env, 'budgets').map((p) => path(workingDirectory, p)),
    baseline: list(env, 'baseline').map((p) => path(workingDirectory, p)),
    results: list(env, 'results').map((p) => path(workingDirectory, p)),
    token: raw(env, 'github-token'),
    comment: oneOf(env, 'comment', COMMENT_MODES, 'always'),
    failOn: oneOf(env, 'fail-on', FAIL_ON, 'fail'),
    checkRun: bool(env, 'check-run', true),
    gateName,
    allowForkPullRequests: bool(env, 'allow-fork-pull-requests', false),
    commentAuthor,
    outputDir: path(workingDirectory, raw(env, 'output-dir') || resolve(runnerTemp, 'perf-gate')),
    reportFrom: reportFrom === '' ? '' : path(workingDirectory, reportFrom),
    artifactName,
    testbedMismatch: oneOf(env, 'testbed-mismatch', TESTBED_MISMATCH, 'flag'),
    preflight: oneOf(env, 'preflight', PREFLIGHT, 'warn'),
    ab: raw(env, 'ab'),
    confirm: oneOf(env, 'confirm', CONFIRM, 'auto'),
    confirmForks: bool(env, 'confirm-forks', false),
    alert: oneOf(env, 'alert', ALERT, 'summary'),
    alertWindow: runs(env, 'alert-window', 10),
    alertBisect: bool(env, 'alert-bisect', false),
    webhook: webhookTarget(env, oneOf(env, 'notify', NOTIFY, 'off')),
    inconclusive: oneOf(env, 'inconclusive', INCONCLUSIVE, 'pass'),
    acceptLabel: raw(env, 'accept-label') || 'perf-gate-accept',
    runWorkflow: raw(env, 'run-workflow'),
    runLabel: raw(env, 'run-label') || 'perf',
    workingDirectory,
    github: {
      apiUrl,
      serverUrl: (env['GITHUB_SERVER_URL'] || 'https://github.com').replace(/\/+$/, ''),
      repository: env['GITHUB_REPOSITORY'] ?? '',
      eventName: env['GITHUB_EVENT_NAME'] ?? '',
      eventPath: env['GITHUB_EVENT_PATH'] ?? '',
      sha: env['GITHUB_SHA'] ?? '',
      ref: env['GITHUB_REF'] ?? '',
      runId: env['GITHUB_RUN_ID'] ?? '',
      runnerEnvironment: env['RUNNER_ENVIRONMENT'] ?? '',
      workspace,
      runnerTemp,
    },
  };
  if (settings.github.repository !== '' && !/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(settings.github.repository)) {
    throw new InputError('GITHUB_REPOSITORY', `"${settings.github.repository.slice(0, 80)}" is not owner/name`);
  }
  if (settings.ab !== '' && (mode === 'main' || mode === 'report')) {
    throw new InputError(where('ab'), `an A/B comparison gates a change (mode pr or release); mode ${mode} takes no ab`);
  }
  if (settings.ab !== '' && !/^[A-Za-z0-9._/@^~-]{1,200}$/.test(settings.ab)) {
    throw new InputError(where('ab'), `"${settings.ab.slice(0, 60)}" is not a git ref; expected "base" or a branch, tag or commit such as origin/main`);
  }
  if (settings.alertBisect && (mode !== 'main' || settings.alert !== 'issue')) {
    // The issue remembers that its step was bisected; without one, every run in the window would bisect it again.
    throw new InputError(
      where('alert-bisect'),
      `needs mode: main and alert: issue (here mode: ${mode}, alert: ${settings.alert}): the alert's issue is where the bisect is reported, once`,
    );
  }
  if (settings.runWorkflow !== '' && !/^[A-Za-z0-9._-]+\.ya?ml$/.test(settings.runWorkflow)) {
    throw new InputError(
      where('run-workflow'),
      `"${settings.runWorkflow.slice(0, 60)}" is not a workflow file name; expected e.g. perf-gate.yml (the file in .github/workflows/)`,
    );
  }
  if (mode === 'report' && settings.results.length > 0) {
    throw new InputError(where('results'), 'mode: report takes its results from the two-stage artifact; leave results empty');
  }
  return settings;
}

/** The webhook of `notify`: its URL (and for json its signing secret) from the step's env. */
function webhookTarget(env: Env, format: (typeof NOTIFY)[number]): WebhookTarget | null {
  if (format === 'off') return null;
  const url = (env[WEBHOOK_URL_VARIABLE] ?? '').trim();
  const secret = env[WEBHOOK_SECRET_VARIABLE] ?? '';
  const how = `action input notify: ${format} needs it; pass it from a secret, e.g. env: ${WEBHOOK_URL_VARIABLE}: \${{ secrets.PERF_GATE_WEBHOOK_URL }}`;
  if (url === '') throw new InputError(WEBHOOK_URL_VARIABLE, `is not set; ${how}`);
  // The URL is a secret (a Slack webhook URL is its own credential): it is never quoted in a message.
  if (!/^https?:\/\/[^\s]+$/.test(url)) throw new InputError(WEBHOOK_URL_VARIABLE, 'is not an http(s) URL (its value is a secret and is not shown)');
  if (format === 'json' && secret.length < 16)
    throw new InputError(
      WEBHOOK_SECRET_VARIABLE,
      `${secret === '' ? 'is not set' : 'is shorter than 16 characters'}; notify: json signs every body with HMAC-SHA256 over this shared secret, so the receiver can tell a real notification from a forged one`,
    );
  return { format: format as WebhookFormat, url, secret };
}

/** The settings as log lines, with the token and the webhook's URL and secret hidden. */
export function describeSettings(settings: Settings): string[] {
  const shown = (key: string, value: unknown): string => {
    if (key === 'token') return value ? '***' : '(none)';
    if (key === 'webhook') return settings.webhook ? `${settings.webhook.format} (URL and secret hidden)` : 'off';
    return JSON.stringify(value);
  };
  return Object.entries(settings)
    .filter(([key]) => key !== 'github')
    .map(([key, value]) => `${key}: ${shown(key, value)}`);
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

/**
 * The github-token for a data branch's fetch and push, handed to those git
 * processes alone: the checkout keeps no credentials (persist-credentials:
 * false), so the benchmarks never find a token in .git/config.
 */
/** The workflow run's page (its checks, logs and artifacts), or null outside a workflow run. */
export function workflowRunUrl(github: Settings['github']): string | null {
  return github.runId && github.repository ? `${github.serverUrl}/${github.repository}/actions/runs/${github.runId}` : null;
}

export function dataBranchAuth(settings: Settings): { auth?: { token: string; serverUrl: string } } {
  return settings.token ? { auth: { token: settings.token, serverUrl: settings.github.serverUrl } } : {};
}

/** Is the two-stage verdict on? The input decides; `auto` follows perf-gate.yml's `confirm:`. */
export function confirming(settings: Pick<Settings, 'confirm'>, config: PerfGateConfig | null): boolean {
  return settings.confirm === 'interleaved' || (settings.confirm === 'auto' && config?.confirm.on === true);
}
