import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { runTool } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { measureUntilDecided } from '../support/undecided.js';
import { requireTool } from '../support/tools.js';

requireTool('wrk');

const EXAMPLE = new URL('../../../examples/http-wrk/', import.meta.url).pathname;

interface Row {
  benchmark: string;
  metric: string;
  direction: string;
  current: { value: number } | null;
  budget: { result?: string; pass?: boolean; status?: string } | null;
}

function rowsOf(path: string): { verdict: string; rows: Row[] } {
  return JSON.parse(readFileSync(path, 'utf8')) as { verdict: string; rows: Row[] };
}

describe('examples/http-wrk: perf-gate run against a loopback server', () => {
  const dir = tempDir();

  test('wrk is installed (npm run setup installs it)', () => {
    runTool('wrk', ['--version'], { allowFailure: true });
  });

  test('a healthy server passes the budgets, with requests/sec higher-is-better', async () => {
    const json = join(dir, 'ok.json');
    const measure = (): ReturnType<typeof runCli> => runCli(['run', '--config', join(EXAMPLE, 'perf-gate.yml'), '--out', join(dir, 'ok'), '--json', json], EXAMPLE, { ...process.env });
    // A stall of this 2-core VM while wrk runs holds every request in flight (a p99 of 1.76 s was seen with
    // other test files running): the tail budget then fails for the machine, not the server. Such a run is
    // measured again, at most twice; any other failing budget is returned at once.
    const onlyTheTailFailed = (r: { status: number | null }): boolean => {
      if (r.status !== 1) return false;
      const failed = rowsOf(json).rows.filter((row) => row.budget?.result === 'fail');
      return failed.length > 0 && failed.every((row) => row.metric === 'latency_p99');
    };
    const run = await measureUntilDecided(measure, onlyTheTailFailed);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    const report = rowsOf(json);
    assert.equal(report.verdict, 'pass');
    const rps = report.rows.find((r) => r.benchmark === 'http/http://127.0.0.1:18473/' && r.metric === 'requests_per_sec')!;
    assert.equal(rps.direction, 'higher');
    assert.ok(rps.current!.value > 200);
    const errors = report.rows.find((r) => r.benchmark === 'http/http://127.0.0.1:18473/work' && r.metric === 'errors')!;
    assert.equal(errors.current!.value, 0);
  });

  test('a server answering 503 now and then fails the gate through the errors budget', async () => {
    const json = join(dir, 'failing.json');
    const run = await runCli(['run', '--config', join(EXAMPLE, 'perf-gate.yml'), '--out', join(dir, 'failing'), '--json', json], EXAMPLE, { ...process.env, FAIL_EVERY: '10' });
    assert.equal(run.status, 1, run.stdout + run.stderr);
    const report = rowsOf(json);
    assert.equal(report.verdict, 'fail');
    const errors = report.rows.find((r) => r.benchmark === 'http/http://127.0.0.1:18473/' && r.metric === 'errors')!;
    assert.ok(errors.current!.value > 0);
    assert.match(JSON.stringify(errors.budget), /fail/);
  });
});
