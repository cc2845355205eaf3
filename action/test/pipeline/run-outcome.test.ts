import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_GATE_OPTIONS, type Acceptance, type CheckPolicy } from '../../src/gate/index.js';
import { EMPTY_BUDGETS } from '../../src/model/index.js';
import { checkMachine, defaultDeps, runGate, type PreflightReport, type RunOutcome } from '../../src/pipeline/index.js';
import { resultSet } from '../action/fixtures.js';
import { tempDir } from '../support/temp.js';
import { bareMetal, writeTree } from '../runner/preflight/fake-root.js';

/**
 * The run finishes the verdict (pipeline/run.ts): the pull request's
 * acceptances are applied inside it, asked for once the run is decided, and
 * what fails under the policy comes with the outcome, so neither face decides
 * it again. The current results are twice as slow as the baseline.
 */
async function gateTwiceAsSlow(plan: { acceptances?: () => Promise<readonly Acceptance[]>; policy?: CheckPolicy }) {
  const dir = tempDir('pg-run-outcome-');
  writeFileSync(join(dir, 'baseline.json'), JSON.stringify(resultSet('b'.repeat(40), { 'copy/parse': 0.01 })));
  return runGate(
    {
      current: { results: resultSet('c'.repeat(40), { 'copy/parse': 0.02 }) },
      store: null,
      baseline: { paths: [join(dir, 'baseline.json')], read: { cwd: dir, created: '2026-11-21T12:00:00Z' } },
      budgets: EMPTY_BUDGETS,
      options: DEFAULT_GATE_OPTIONS,
      labels: { baselineInput: '--baseline', current: 'given results' },
      record: null,
      ...plan,
    },
    { env: {}, write: () => {}, now: () => new Date('2026-11-21T12:00:00Z'), deps: defaultDeps(), cleanups: [] },
  );
}

function acceptanceOf(change: number, benchmark: string): Acceptance {
  return {
    benchmarks: benchmark,
    reason: 'the new parser is slower and correct',
    by: 'octocat',
    commit: 'c'.repeat(40),
    at: '2026-11-21T11:00:00Z',
    source: { kind: 'comment', url: 'https://github.example.com/acme/prog/pull/41#issuecomment-1' },
    rows: [{ benchmark, metric: 'time', change, direction: 'lower' }],
  };
}

test('without acceptances a regression fails the run and the check', async () => {
  const outcome = await gateTwiceAsSlow({});
  assert.equal(outcome.report.rows[0]!.status, 'regressed');
  assert.equal(outcome.report.verdict, 'fail');
  assert.equal(outcome.fails, true);
  assert.equal(outcome.conclusion, 'failure');
  assert.deepEqual(outcome.acceptances, []);
});

test('an acceptance on record passes the row inside the run; the unaccepted report keeps what the ledger records', async () => {
  const change = (await gateTwiceAsSlow({})).report.rows[0]!.change!;
  let asked = 0;
  const accepted = [acceptanceOf(change, 'copy/parse')];
  const outcome = await gateTwiceAsSlow({ acceptances: async () => (asked++, accepted) });
  assert.equal(asked, 1, 'asked for once');
  assert.equal(outcome.report.rows[0]!.status, 'accepted');
  assert.equal(outcome.report.verdict, 'pass');
  assert.equal(outcome.fails, false);
  assert.equal(outcome.conclusion, 'success');
  assert.equal(outcome.unaccepted.rows[0]!.status, 'regressed');
  assert.deepEqual(outcome.acceptances, accepted);
});

test('an acceptance of another benchmark leaves the regression failing', async () => {
  const outcome = await gateTwiceAsSlow({ acceptances: async () => [acceptanceOf(1, 'other/parse')] });
  assert.equal(outcome.report.rows[0]!.status, 'regressed');
  assert.equal(outcome.fails, true);
});

test('fail-on: never keeps the step green and posts a neutral check for a failing verdict', async () => {
  const outcome = await gateTwiceAsSlow({ policy: { failOn: 'never', inconclusive: 'pass', selfReported: false } });
  assert.equal(outcome.report.verdict, 'fail');
  assert.equal(outcome.fails, false);
  assert.equal(outcome.conclusion, 'neutral');
});

/**
 * Main's watch is part of the run: a run recorded in a history with
 * RunPlan.watch finds the change points among the last runs in the history
 * it was appended to (the action only tells GitHub what the outcome holds).
 */
async function recordMainRuns(levels: readonly number[], watch: boolean) {
  const dir = tempDir('pg-run-watch-');
  let last: RunOutcome | undefined;
  for (const [i, level] of levels.entries()) {
    const created = new Date(Date.UTC(2026, 10, 1, i)).toISOString();
    const results = { ...resultSet(i.toString(16).padStart(40, '0'), { 'copy/parse': level }), created, testbed: { id: 'tb-watch' } };
    last = await runGate(
      {
        current: { results },
        store: { history: { folder: 'history' }, repo: dir, start: { base: 'HEAD' } },
        baseline: null,
        budgets: EMPTY_BUDGETS,
        options: DEFAULT_GATE_OPTIONS,
        labels: { baselineInput: 'the history', current: 'given results' },
        record: { shard: null },
        ...(watch ? { watch: { window: 4 } } : {}),
      },
      { env: {}, write: () => {}, now: () => new Date(created), deps: defaultDeps(), cleanups: [] },
    );
    assert.ok(last.stored && 'at' in last.stored, `run ${i} is stored`);
  }
  return last!;
}

test("main's watch: a step among the last runs is an alert, read from the history the run was appended to", async () => {
  const outcome = await recordMainRuns([...Array<number>(10).fill(0.01), ...Array<number>(4).fill(0.02)], true);
  const found = outcome.alerts;
  assert.ok(found, 'the run watched');
  assert.equal(found.window, 4);
  assert.deepEqual(
    found.alerts.map((a) => a.row.benchmark),
    ['copy/parse'],
  );
  assert.equal(found.alerts[0]!.row.commit, (10).toString(16).padStart(40, '0'), 'the step is at the first slower run');
});

test("main's watch: no step, no alert; a plan that does not watch reads nothing", async () => {
  assert.deepEqual((await recordMainRuns(Array<number>(8).fill(0.01), true)).alerts?.alerts, []);
  assert.equal((await recordMainRuns([...Array<number>(6).fill(0.01), 0.02, 0.02, 0.02], false)).alerts, null);
});

/**
 * The preflight is part of the run (RunPlan.preflight), before anything is
 * read or measured: the real checks, on a fake machine whose governor is
 * `powersave` and whose turbo and SMT are on (each a warning). The face is
 * told the report (events.onPreflight) to show it its own way.
 */
async function gateOnPowersaveMachine(level: 'warn' | 'strict', baselinePath?: string) {
  const machine = writeTree(bareMetal());
  const told: PreflightReport[] = [];
  try {
    const dir = tempDir('pg-run-preflight-');
    const baseline = baselinePath ?? join(dir, 'baseline.json');
    if (baselinePath === undefined) writeFileSync(baseline, JSON.stringify(resultSet('b'.repeat(40), { 'copy/parse': 0.01 })));
    const outcome = await runGate(
      {
        current: { results: resultSet('c'.repeat(40), { 'copy/parse': 0.01 }) },
        store: null,
        baseline: { paths: [baseline], read: { cwd: dir, created: '2026-11-21T12:00:00Z' } },
        budgets: EMPTY_BUDGETS,
        options: DEFAULT_GATE_OPTIONS,
        labels: { baselineInput: '--baseline', current: 'given results' },
        record: null,
        preflight: { level, runner: 'bench-1' },
      },
      {
        env: {},
        write: () => {},
        now: () => new Date('2026-11-21T12:00:00Z'),
        deps: {
          ...defaultDeps(),
          preflight: (l, runner, env) => checkMachine({ level: l, root: machine.root, probe: false, env, ...(runner ? { runner } : {}) }),
        },
        cleanups: [],
      },
      { onPreflight: (report) => void told.push(report) },
    );
    return { outcome, told };
  } finally {
    machine.cleanup();
  }
}

test('preflight: strict stops the run on a machine that warns, before the baseline is read; the face is told why', async () => {
  // A baseline that does not exist: reading it would be an InputError, so an outcome proves it was never read.
  const { outcome, told } = await gateOnPowersaveMachine('strict', '/nonexistent/baseline.json');
  assert.ok('unfit' in outcome, 'the run stopped');
  assert.equal(told.length, 1);
  assert.equal(told[0], outcome.unfit);
  assert.equal(outcome.unfit.fails, true);
  assert.ok(
    outcome.unfit.findings.some((f) => f.check === 'governor' && f.status === 'warn'),
    JSON.stringify(outcome.unfit.findings.map((f) => [f.check, f.status])),
  );
});

test('preflight: warn tells the face the same findings and runs to a verdict', async () => {
  const { outcome, told } = await gateOnPowersaveMachine('warn');
  assert.ok(!('unfit' in outcome), 'the run went on');
  assert.equal(outcome.report.verdict, 'pass');
  assert.equal(told.length, 1);
  assert.equal(told[0]!.fails, false);
  assert.ok(told[0]!.findings.some((f) => f.check === 'governor' && f.status === 'warn'));
});
