import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * What docs/security.md promises of a workflow, checked on every example
 * workflow and every workflow snippet in README.md and docs/ (users copy
 * them): a self-hosted job that a pull request triggers carries the fork
 * `if:`; a workflow with `contents: write` keeps no token in .git/config
 * (`persist-credentials: false` on every checkout; pushes get the token in
 * their own step's environment); every example job has a time limit.
 */
const ROOT = new URL('../../', import.meta.url).pathname;

interface Job {
  'runs-on'?: string | string[];
  if?: string;
  'timeout-minutes'?: number;
  permissions?: Record<string, string> | string;
  steps?: { uses?: string; with?: Record<string, unknown> }[];
}
interface Workflow {
  on?: unknown;
  permissions?: Record<string, string> | string;
  jobs?: Record<string, Job>;
}

/** Every workflow a reader can copy: the example files whole, and the YAML blocks of the docs that hold jobs. */
function workflows(): { where: string; workflow: Workflow; example: boolean }[] {
  const out: { where: string; workflow: Workflow; example: boolean }[] = [];
  for (const f of readdirSync(join(ROOT, 'examples/workflows')).filter((n) => n.endsWith('.yml'))) {
    out.push({ where: `examples/workflows/${f}`, workflow: parse(readFileSync(join(ROOT, 'examples/workflows', f), 'utf8')) as Workflow, example: true });
  }
  const docs = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  for (const doc of docs) {
    const text = readFileSync(join(ROOT, doc), 'utf8');
    for (const m of text.matchAll(/```yaml\n([\s\S]*?)```/g)) {
      // Snippets elide with "..." lines; what is left must still parse.
      const body = m[1]!
        .split('\n')
        .filter((l) => l.trim() !== '...')
        .join('\n');
      let parsed: unknown;
      try {
        parsed = parse(body);
      } catch {
        continue; // a fragment of a step, not a workflow
      }
      const workflow = parsed as Workflow | null;
      if (workflow && typeof workflow === 'object' && workflow.jobs) {
        out.push({ where: `${doc}:${text.slice(0, m.index).split('\n').length}`, workflow, example: false });
      }
    }
  }
  return out;
}

const triggeredByPullRequests = (w: Workflow): boolean => {
  const on = w.on;
  const events = typeof on === 'string' ? [on] : Array.isArray(on) ? on : on && typeof on === 'object' ? Object.keys(on) : [];
  return events.includes('pull_request') || events.includes('pull_request_target');
};
const selfHosted = (job: Job): boolean => [job['runs-on'] ?? []].flat().includes('self-hosted');
const writes = (permissions: Job['permissions']): boolean =>
  permissions === 'write-all' || (typeof permissions === 'object' && permissions.contents === 'write');

const all = workflows();

test('the workflows are found: every example and the snippets of the docs', () => {
  assert.ok(all.filter((w) => w.example).length >= 7, all.map((w) => w.where).join(', '));
  assert.ok(all.filter((w) => !w.example).length >= 3, all.map((w) => w.where).join(', '));
});

test('a self-hosted job that a pull request triggers refuses forks with its if:', () => {
  for (const { where, workflow } of all.filter((w) => triggeredByPullRequests(w.workflow))) {
    for (const [name, job] of Object.entries(workflow.jobs ?? {})) {
      if (!selfHosted(job)) continue;
      assert.match(String(job.if ?? ''), /github\.event\.pull_request\.head\.repo\.full_name == github\.repository/, `${where}: job ${name}`);
    }
  }
});

test('a workflow that can write contents leaves no token in .git/config', () => {
  for (const { where, workflow } of all) {
    for (const [name, job] of Object.entries(workflow.jobs ?? {})) {
      if (!writes(job.permissions ?? workflow.permissions)) continue;
      for (const step of job.steps ?? []) {
        if (!step.uses?.startsWith('actions/checkout@')) continue;
        assert.equal(
          step.with?.['persist-credentials'],
          false,
          `${where}: job ${name}: actions/checkout keeps the contents: write token in .git/config, where the benchmarks can read it`,
        );
      }
    }
  }
});

test('every example job has a time limit', () => {
  for (const { where, workflow } of all.filter((w) => w.example)) {
    for (const [name, job] of Object.entries(workflow.jobs ?? {})) {
      assert.ok(typeof job['timeout-minutes'] === 'number', `${where}: job ${name} has no timeout-minutes`);
    }
  }
});

test('every example workflow states its token permissions', () => {
  for (const { where, workflow } of all.filter((w) => w.example)) {
    for (const [name, job] of Object.entries(workflow.jobs ?? {})) {
      assert.ok((job.permissions ?? workflow.permissions) !== undefined, `${where}: job ${name} has no permissions: block`);
    }
  }
});

test('a mode: command job, which holds a write token, checks nothing out and never runs on the self-hosted runner', () => {
  let commandJobs = 0;
  for (const { where, workflow } of all) {
    for (const [name, job] of Object.entries(workflow.jobs ?? {})) {
      const steps = job.steps ?? [];
      if (!steps.some((s) => s.uses?.startsWith('org/perf-gate@') && s.with?.['mode'] === 'command')) continue;
      commandJobs++;
      assert.ok(!selfHosted(job), `${where}: job ${name} runs mode: command on a self-hosted runner`);
      assert.ok(!steps.some((s) => s.uses?.startsWith('actions/checkout@')), `${where}: job ${name} checks out code next to a write token`);
    }
  }
  assert.ok(commandJobs >= 1, 'the command workflow is among the examples');
});
