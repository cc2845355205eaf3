/**
 * `perf-gate action`: the entry of the GitHub Action (action.yml runs it).
 * Wiring only: read every input and the environment into one Settings object,
 * build the GitHub client and the log, run the phases, map errors to exit
 * statuses. Outputs go to GITHUB_OUTPUT and the report to GITHUB_STEP_SUMMARY
 * through @actions/core.
 */
import * as core from '@actions/core';
import { closeSync, readFileSync } from 'node:fs';
import { InputError } from '../model/index.js';
import { createGitHubClient, GitHubError } from '../github/client.js';
import { defaultDeps, EXIT, prepareOutputPaths, UsageError, withInterruptCleanup, type Command } from '../pipeline/index.js';
import { runAction } from './run-action.js';
import { readSettings, describeSettings } from './read-settings.js';
import { suiteEnvironment, workflowRunUrl } from './settings.js';
import type { ActionLog } from './log.js';

const USAGE = `Usage: perf-gate action

Runs perf-gate as the GitHub Action: reads the action's inputs from INPUT_*
variables and the runner's GITHUB_* and RUNNER_* variables (see action.yml and
docs/github-action.md). Not meant to be run by hand.`;

/** The log of a real run: @actions/core's workflow commands and file commands. */
function coreLog(): ActionLog {
  return {
    group: (title, fn) => core.group(title, fn),
    info: (m) => core.info(m),
    debug: (m) => core.debug(m),
    warning: (m) => core.warning(m),
    error: (m) => core.error(m),
    setOutput: (name, value) => core.setOutput(name, value),
    appendSummary: async (markdown) => {
      if (!process.env['GITHUB_STEP_SUMMARY']) return;
      await core.summary.addRaw(markdown, true).write();
      core.summary.emptyBuffer();
    },
  };
}

/**
 * The inputs with the github-token put back. action/bin/run-action.sh hands
 * the token over on a file descriptor (PERF_GATE_TOKEN_FD) instead of the
 * environment, because a benchmark can read this process's startup
 * environment from /proc/<ppid>/environ. The descriptor is closed once read so
 * no child inherits it; the copy stays in memory for readSettings, the one
 * place that interprets inputs.
 */
function withHandedToken(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const fdText = env.PERF_GATE_TOKEN_FD;
  if (fdText === undefined || fdText === '') return env;
  const fd = Number(fdText);
  if (!Number.isInteger(fd) || fd < 3) throw new InputError('PERF_GATE_TOKEN_FD', `"${fdText}" is not a file descriptor number (3 or more)`);
  let token: string;
  try {
    token = readFileSync(fd, 'utf8').trim();
  } catch (error) {
    throw new InputError(
      'PERF_GATE_TOKEN_FD',
      `the github-token could not be read from descriptor ${fd}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Already closed: nothing is left for a child to inherit.
    }
  }
  const { PERF_GATE_TOKEN_FD: _fd, ...rest } = env;
  return { ...rest, INPUT_GITHUB_TOKEN: token };
}

export const actionCommand: Command = {
  name: 'action',
  summary: 'run as the GitHub Action (inputs from INPUT_* variables)',
  usage: USAGE,
  async run(argv, ctx) {
    if (argv.length > 0) throw new UsageError(`takes no arguments, found "${argv[0]}"`);
    const log = coreLog();
    try {
      const settings = readSettings(withHandedToken(ctx.env), ctx.cwd);
      prepareOutputPaths([{ flag: 'the output-dir input', path: settings.outputDir, kind: 'folder' }], ctx.cwd);
      if (settings.token) core.setSecret(settings.token);
      // The webhook's URL is its own credential (Slack's is): masked like the token, wherever a tool might print it.
      if (settings.webhook) for (const secret of [settings.webhook.url, settings.webhook.secret]) if (secret) core.setSecret(secret);
      for (const line of describeSettings(settings)) log.debug(line);
      const github = settings.token ? createGitHubClient({ baseUrl: settings.github.apiUrl, token: settings.token, onRetry: (m) => log.info(m) }) : null;
      // One spawner for every phase, so a cancelled workflow (SIGTERM) stops whatever benchmark runs and removes the A/B worktree.
      const run = defaultDeps();
      // The report names the profiles' files within the uploaded output-dir, and links the run's artifacts.
      const runUrl = workflowRunUrl(settings.github);
      return await withInterruptCleanup(run.spawner, (cleanups) =>
        runAction(settings, {
          github,
          log,
          run: {
            env: suiteEnvironment(ctx.env),
            write: ctx.stdout,
            warn: (text) => log.warning(text),
            now: ctx.now,
            deps: run,
            cleanups,
            groups: ctx.env.GITHUB_ACTIONS === 'true',
            published: { dir: settings.outputDir, ...(runUrl ? { artifactsUrl: `${runUrl}#artifacts` } : {}) },
          },
        }),
      );
    } catch (error) {
      // One clear message as an error annotation, then the CLI's usual mapping (2 for unusable input).
      if (error instanceof InputError) {
        log.error(`perf-gate: ${error.message}`);
        return EXIT.unusable;
      }
      // Only the two-stage verification needs GitHub before a verdict exists; without it nothing can be posted safely.
      if (error instanceof GitHubError) {
        log.error(`perf-gate: GitHub could not be asked what the run needs (${error.message})`);
        return EXIT.unusable;
      }
      throw error;
    }
  },
};
