/**
 * The runner's side of a job for the harness: the environment variables and
 * the `github` and `runner` contexts a step sees, with the event payload
 * written to a file (GITHUB_EVENT_PATH) like the runner does.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runComposite, type CompositeResult } from './run-composite.js';

export interface Scenario {
  /** The checkout (GITHUB_WORKSPACE). */
  workspace: string;
  /** RUNNER_TEMP. */
  runnerTemp: string;
  apiUrl: string;
  token: string;
  repository: string;
  eventName: string;
  event: Record<string, unknown>;
  sha: string;
  ref?: string;
  runnerEnvironment?: 'self-hosted' | 'github-hosted';
  /** PATH for the steps; default this process's PATH. */
  path?: string;
  extraEnv?: Record<string, string>;
}

let counter = 0;

export async function runAction(actionPath: string, scenario: Scenario, inputs: Record<string, string>): Promise<CompositeResult> {
  const jobDir = join(scenario.runnerTemp, `job-${++counter}`);
  mkdirSync(jobDir, { recursive: true });
  const eventPath = join(jobDir, 'event.json');
  writeFileSync(eventPath, JSON.stringify(scenario.event));
  const env: Record<string, string> = {
    PATH: scenario.path ?? process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: process.env['HOME'] ?? '/root',
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_API_URL: scenario.apiUrl,
    GITHUB_SERVER_URL: 'https://github.example.com',
    GITHUB_REPOSITORY: scenario.repository,
    GITHUB_EVENT_NAME: scenario.eventName,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_SHA: scenario.sha,
    GITHUB_REF: scenario.ref ?? 'refs/heads/main',
    GITHUB_WORKSPACE: scenario.workspace,
    GITHUB_RUN_ID: '4242',
    RUNNER_TEMP: scenario.runnerTemp,
    RUNNER_ENVIRONMENT: scenario.runnerEnvironment ?? 'self-hosted',
    RUNNER_OS: 'Linux',
    ...(scenario.extraEnv ?? {}),
  };
  return runComposite({
    actionPath,
    inputs,
    env,
    github: {
      token: scenario.token,
      event_name: scenario.eventName,
      event: scenario.event,
      repository: scenario.repository,
      sha: scenario.sha,
      workspace: scenario.workspace,
      api_url: scenario.apiUrl,
    },
    runner: { temp: scenario.runnerTemp, os: 'Linux', environment: scenario.runnerEnvironment ?? 'self-hosted' },
    tempDir: join(jobDir, '_runner_file_commands'),
    timeoutMs: 150_000,
  });
}

/** A pull_request event payload. */
export function pullRequestEvent(number: number, headSha: string, headRepo: string, baseRepo: string): Record<string, unknown> {
  return {
    action: 'synchronize',
    number,
    pull_request: {
      number,
      head: { sha: headSha, ref: 'feature', repo: { full_name: headRepo } },
      base: { sha: '0'.repeat(40), ref: 'main', repo: { full_name: baseRepo } },
    },
    repository: { full_name: baseRepo },
  };
}
