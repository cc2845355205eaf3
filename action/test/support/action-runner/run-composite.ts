/**
 * Runs a composite action's steps the way the runner does, so action.yml itself
 * is under test: inputs with their defaults (which may be expressions), `${{ }}`
 * in `env:`, `if:`, `working-directory:` and outputs evaluated with
 * @actions/expressions, every `run:` executed by bash with `-e -o pipefail`,
 * and the file commands implemented: GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH,
 * GITHUB_STEP_SUMMARY, plus GITHUB_ACTION_PATH and GITHUB_EVENT_PATH.
 *
 * It refuses a `run:` that contains `${{` (values must pass through `env:`)
 * and an input the action does not declare, so mistakes fail the tests.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { evaluateCondition, evaluateTemplate, type JobStatus } from './expressions.js';

interface ActionStep {
  id?: string;
  name?: string;
  if?: string;
  shell?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}

interface ActionFile {
  inputs?: Record<string, { default?: string; required?: boolean }>;
  outputs?: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export interface CompositeOptions {
  /** Folder holding action.yml (becomes GITHUB_ACTION_PATH). */
  actionPath: string;
  inputs: Record<string, string>;
  /** The runner's environment for the job (PATH, GITHUB_*, RUNNER_* …). */
  env: Record<string, string>;
  /** The `github` context (token, event_name, event, repository …). */
  github: Record<string, unknown>;
  /** The `runner` context (temp, os, environment …). */
  runner: Record<string, unknown>;
  /** Folder for the file-command files. */
  tempDir: string;
  /** Per-step time limit in ms. */
  timeoutMs?: number;
}

export interface StepRecord {
  id: string;
  outcome: 'success' | 'failure' | 'skipped';
  exitCode: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
}

export interface CompositeResult {
  /** The action step's conclusion as the job sees it. */
  outcome: 'success' | 'failure';
  outputs: Record<string, string>;
  steps: StepRecord[];
  /** Everything the steps wrote to GITHUB_STEP_SUMMARY. */
  summary: string;
  /** Variables exported through GITHUB_ENV. */
  exportedEnv: Record<string, string>;
  /** Workflow commands seen on stdout, e.g. { command: 'error', message }. */
  annotations: { command: string; message: string }[];
  stdout: string;
}

/** Parses GITHUB_OUTPUT / GITHUB_ENV content: `name=value` and `name<<DELIM` … `DELIM`. */
export function parseFileCommand(text: string): Record<string, string> {
  const result: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name, delimiter] = heredoc;
      const value: string[] = [];
      let closed = false;
      for (i++; i < lines.length; i++) {
        if (lines[i] === delimiter) {
          closed = true;
          break;
        }
        value.push(lines[i]!);
      }
      if (!closed) throw new Error(`file command: no closing delimiter ${delimiter} for ${name}`);
      result[name!] = value.join('\n');
      continue;
    }
    const eq = line.indexOf('=');
    if (eq <= 0) throw new Error(`file command: malformed line ${JSON.stringify(line)}`);
    result[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return result;
}

function runBash(
  script: string,
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', script], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
      stderr += `\n[harness] step killed after ${timeoutMs} ms\n`;
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export async function runComposite(options: CompositeOptions): Promise<CompositeResult> {
  const action = parse(readFileSync(join(options.actionPath, 'action.yml'), 'utf8')) as ActionFile;
  if (action.runs.using !== 'composite') throw new Error(`not a composite action: ${action.runs.using}`);
  const declared = action.inputs ?? {};
  for (const name of Object.keys(options.inputs)) {
    if (!(name in declared)) throw new Error(`Unexpected input '${name}': action.yml declares ${Object.keys(declared).join(', ')}`);
  }
  const status: JobStatus = { failed: false };
  const baseContexts = { github: options.github, runner: options.runner, env: { ...options.env } };
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(declared)) {
    inputs[name] = options.inputs[name] ?? evaluateTemplate(String(spec.default ?? ''), baseContexts, status);
  }

  mkdirSync(options.tempDir, { recursive: true });
  const summaryFile = join(options.tempDir, 'step_summary_all.md');
  writeFileSync(summaryFile, '');
  const exportedEnv: Record<string, string> = {};
  const extraPath: string[] = [];
  const steps: Record<string, { outputs: Record<string, string>; outcome: string; conclusion: string }> = {};
  const records: StepRecord[] = [];
  const annotations: CompositeResult['annotations'] = [];
  let stdoutAll = '';

  for (const [index, step] of action.runs.steps.entries()) {
    const id = step.id ?? `__step${index}`;
    const contexts = { ...baseContexts, env: { ...options.env, ...exportedEnv }, inputs, steps };
    if (step.uses) throw new Error(`step ${id}: the harness runs only run: steps (uses: ${step.uses})`);
    if (step.run === undefined) throw new Error(`step ${id}: no run:`);
    if (step.run.includes('${{')) throw new Error(`step ${id}: run: contains \${{ }}; pass values through env: instead`);
    if (step.shell !== 'bash') throw new Error(`step ${id}: composite run steps need shell: bash (found ${step.shell ?? 'none'})`);
    if (!evaluateCondition(step.if, contexts, status)) {
      steps[id] = { outputs: {}, outcome: 'skipped', conclusion: 'skipped' };
      records.push({ id, outcome: 'skipped', exitCode: null, stdout: '', stderr: '', outputs: {} });
      continue;
    }
    const stepEnv: Record<string, string> = {};
    for (const [k, v] of Object.entries(step.env ?? {})) stepEnv[k] = evaluateTemplate(String(v), contexts, status);
    const files = {
      GITHUB_OUTPUT: join(options.tempDir, `output_${index}`),
      GITHUB_ENV: join(options.tempDir, `env_${index}`),
      GITHUB_PATH: join(options.tempDir, `path_${index}`),
      GITHUB_STEP_SUMMARY: join(options.tempDir, `summary_${index}`),
    };
    for (const f of Object.values(files)) writeFileSync(f, '');
    const path = [...extraPath, options.env['PATH'] ?? ''].filter((p) => p !== '').join(':');
    const env: Record<string, string> = {
      ...options.env,
      ...exportedEnv,
      ...stepEnv,
      ...files,
      PATH: path,
      GITHUB_ACTION_PATH: options.actionPath,
      GITHUB_ACTION: id,
    };
    const cwd = step['working-directory'] ? evaluateTemplate(step['working-directory'], contexts, status) : (options.env['GITHUB_WORKSPACE'] ?? process.cwd());
    const result = await runBash(step.run, cwd, env, options.timeoutMs ?? 120_000);
    stdoutAll += result.stdout;
    for (const line of result.stdout.split('\n')) {
      const command = /^::(error|warning|notice)(?: [^:]*)?::(.*)$/.exec(line);
      if (command) annotations.push({ command: command[1]!, message: command[2]! });
    }
    const outputs = parseFileCommand(readFileSync(files.GITHUB_OUTPUT, 'utf8'));
    Object.assign(exportedEnv, parseFileCommand(readFileSync(files.GITHUB_ENV, 'utf8')));
    extraPath.unshift(
      ...readFileSync(files.GITHUB_PATH, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .reverse(),
    );
    if (existsSync(files.GITHUB_STEP_SUMMARY)) appendFileSync(summaryFile, readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8'));
    const outcome = result.code === 0 ? 'success' : 'failure';
    if (outcome === 'failure') status.failed = true;
    steps[id] = { outputs, outcome, conclusion: outcome };
    records.push({ id, outcome, exitCode: result.code, stdout: result.stdout, stderr: result.stderr, outputs });
  }

  const finalContexts = { ...baseContexts, env: { ...options.env, ...exportedEnv }, inputs, steps };
  const outputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.outputs ?? {})) outputs[name] = evaluateTemplate(spec.value, finalContexts, status);
  return {
    outcome: status.failed ? 'failure' : 'success',
    outputs,
    steps: records,
    summary: readFileSync(summaryFile, 'utf8'),
    exportedEnv,
    annotations,
    stdout: stdoutAll,
  };
}
