import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { readmePerfGateRuns } from '../support/example-readme.js';
import { runTool } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { measureUntilDecided } from '../support/undecided.js';
import { requireTool } from '../support/tools.js';

requireTool('wrk', 'vegeta', 'hey');

const EXAMPLE = new URL('../../../examples/http-server/', import.meta.url).pathname;
const ROOT = new URL('../../../', import.meta.url).pathname;
const readme = readFileSync(join(EXAMPLE, 'README.md'), 'utf8');
/** Half the example's loads (bench.sh's knobs): the assertions are about budgets and errors, not throughput precision. */
const SHORT_LOADS = { WRK_SECONDS: '1', ATTACK_MS: '250' };

interface Row {
  benchmark: string;
  metric: string;
  direction: string;
  status: string;
  current: { value: number } | null;
  budget: { result?: string; pass?: boolean; status?: string } | null;
}

function rowsOf(path: string): { verdict: string; rows: Row[] } {
  return JSON.parse(readFileSync(path, 'utf8')) as { verdict: string; rows: Row[] };
}

function row(rows: Row[], benchmark: string, metric: string): Row {
  const found = rows.find((r) => r.benchmark === benchmark && r.metric === metric);
  assert.ok(found, `no row ${benchmark} ${metric}`);
  return found;
}

describe('examples/http-server: perf-gate run against a loopback server, three load generators', () => {
  const dir = tempDir();
  const [plain, slow, fastErrors] = readmePerfGateRuns(readme);

  test('wrk, vegeta and hey are installed (npm run setup installs them)', () => {
    runTool('wrk', ['--version'], { allowFailure: true });
  });

  test('a healthy server passes the budgets of all three suites', async () => {
    assert.deepEqual(plain, { env: {}, args: ['run', '--config', 'examples/http-server/perf-gate.yml'] });
    const json = join(dir, 'ok.json');
    const measure = (): ReturnType<typeof runCli> => runCli([...plain!.args, '--out', join(dir, 'ok'), '--json', json], ROOT, { ...process.env, ...SHORT_LOADS });
    // A stall of this 2-core VM while a generator runs holds every request in flight (a p99 of 1.76 s was seen
    // with other test files running): the tail budget then fails for the machine, not the server. Such a run is
    // measured again, at most twice; any other failing budget is returned at once.
    const onlyTheTailFailed = (r: { status: number | null }): boolean => {
      if (r.status !== 1) return false;
      const failed = rowsOf(json).rows.filter((r) => r.budget?.result === 'fail');
      return failed.length > 0 && failed.every((r) => r.metric === 'latency_p99');
    };
    const run = await measureUntilDecided(measure, onlyTheTailFailed);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    const report = rowsOf(json);
    assert.equal(report.verdict, 'pass');
    const rps = row(report.rows, 'http/http://127.0.0.1:18473/', 'requests_per_sec');
    assert.equal(rps.direction, 'higher');
    assert.ok(rps.current!.value > 200);
    assert.equal(row(report.rows, 'http/http://127.0.0.1:18473/work', 'errors').current!.value, 0);
    for (const id of ['vegeta/vegeta', 'hey/hey']) {
      assert.equal(row(report.rows, id, 'errors').current!.value, 0, id);
      assert.equal(row(report.rows, id, 'requests_per_sec').direction, 'higher', id);
      assert.equal(row(report.rows, id, 'latency_p99').direction, 'lower', id);
    }
  });

  test('a server answering 503 now and then fails the gate through the errors budgets', async () => {
    const json = join(dir, 'failing.json');
    const run = await runCli(['run', '--config', join(EXAMPLE, 'perf-gate.yml'), '--out', join(dir, 'failing'), '--json', json], EXAMPLE, { ...process.env, ...SHORT_LOADS, FAIL_EVERY: '10' });
    assert.equal(run.status, 1, run.stdout + run.stderr);
    const report = rowsOf(json);
    assert.equal(report.verdict, 'fail');
    for (const id of ['http/http://127.0.0.1:18473/', 'vegeta/vegeta', 'hey/hey']) {
      const errors = row(report.rows, id, 'errors');
      assert.ok(errors.current!.value > 0, id);
      assert.match(JSON.stringify(errors.budget), /fail/, id);
    }
  });

  test('faster by answering 500 to half the requests: requests/sec improved, errors regressed, the gate fails', async () => {
    assert.deepEqual(slow!.env, { WORK_ROUNDS: '300000' });
    assert.deepEqual(fastErrors!.env, { WORK_ROUNDS: '2000', FAIL_EVERY: '2', FAIL_STATUS: '500' });
    const base = await runCli([...slow!.args.map((a) => (a === 'slow-run' ? join(dir, 'slow-run') : a))], ROOT, { ...process.env, ...SHORT_LOADS, ...slow!.env });
    assert.ok(base.status === 0 || base.status === 1, base.stdout + base.stderr);
    const json = join(dir, 'fast-errors.json');
    const args = fastErrors!.args.map((a) => (a === 'slow-run/results.json' ? join(dir, 'slow-run', 'results.json') : a));
    const run = await runCli([...args, '--out', join(dir, 'fast-run'), '--json', json], ROOT, { ...process.env, ...SHORT_LOADS, ...fastErrors!.env });
    assert.equal(run.status, 1, run.stdout + run.stderr);
    const { rows } = rowsOf(json);
    assert.equal(row(rows, 'hey/hey', 'requests_per_sec').status, 'improved');
    assert.equal(row(rows, 'hey/hey', 'errors').status, 'regressed');
    assert.equal(row(rows, 'hey/hey', 'errors.status').status, 'regressed');
    const ratio = row(rows, 'hey/hey', 'error_ratio');
    assert.ok(Math.abs(ratio.current!.value - 0.5) < 0.01, `error ratio ${ratio.current!.value}`);
  });
});
