/**
 * The ONE place that reads the action's inputs and the runner's environment.
 * action.yml passes every input as an `INPUT_<NAME>` variable (dashes become
 * underscores); the runner adds its GITHUB_* and RUNNER_* variables. Each input
 * is read, defaulted, validated strictly and resolved into one typed Settings
 * literal (settings.ts). Unknown booleans and enum values are errors that name
 * the input and the accepted values; nothing downstream reads process.env.
 */
import { isAbsolute, resolve } from 'node:path';
import { InputError } from '../model/index.js';
import { GATE_NAME } from '../github/sticky-comment.js';
import type { WebhookFormat, WebhookTarget } from '../github/webhook.js';
import {
  ALERT,
  COMMENT_MODES,
  CONFIRM,
  FAIL_ON,
  INCONCLUSIVE,
  MODES,
  NOTIFY,
  PREFLIGHT,
  TESTBED_MISMATCH,
  WEBHOOK_SECRET_VARIABLE,
  WEBHOOK_URL_VARIABLE,
  type Settings,
} from './settings.js';

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
