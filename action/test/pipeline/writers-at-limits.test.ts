import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readHandoffFolder, writeHandoff } from '../../src/action/handoff.js';
import { validateResultSet } from '../../src/adapters/result-set.js';
import {
  boundedAcceptances,
  boundedEnvironment,
  ENVIRONMENT_LIMITS,
  InputError,
  MAX_BENCHMARK_ID_LENGTH,
  newResultSet,
  RECORDED_ACCEPTANCE_LIMITS,
  type ResultSet,
} from '../../src/model/index.js';
import { MAX_LEDGER_CHARS } from '../../src/github/sticky-comment.js';
import { decodeLedger, encodeLedger, ledgerOf, MAX_GLOB_CHARS, MAX_REASON_CHARS, recordAcceptance } from '../../src/pipeline/pr-ledger.js';
import { storableResultSet } from '../../src/pipeline/storable.js';
import { serializeResultSet } from '../../src/store/index.js';
import schema from '../../schemas/result-set.schema.json' with { type: 'json' };
import { openFolder } from '../support/history.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { reportOf, row } from '../report/handwritten-reports.js';

/**
 * Hardening, round three (finding 3): every writer of a stored ResultSet, a
 * history file or a ledger round-trips through its own reader, for inputs at
 * every documented limit; past a limit the writer bounds or refuses before
 * anything is written, never stores what its reader refuses.
 */

const read = (set: ResultSet): ResultSet => validateResultSet(JSON.parse(serializeResultSet(set)) as unknown, 'round trip');

/** A run at every limit of the ResultSet schema at once. */
function atLimits(): ResultSet {
  const L = ENVIRONMENT_LIMITS;
  const record = (n: number, chars: number, prefix: string) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, 'v'.repeat(chars)]));
  return {
    ...newResultSet('2026-11-28T10:00:00Z', [
      { id: 'i'.repeat(MAX_BENCHMARK_ID_LENGTH), status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: [1, 2, 3] } } },
    ]),
    commit: 'a'.repeat(40),
    testbed: { id: 'vm' },
    environment: {
      kernel: 'k'.repeat(L.kernel),
      microcode: 'm'.repeat(L.microcode),
      toolchains: record(L.toolchains.entries, L.toolchains.chars, 'tool'),
      flags: record(L.flags.entries, L.flags.chars, 'suite:CFLAGS'),
      lockfiles: Object.fromEntries(Array.from({ length: L.lockfiles.entries }, (_, i) => [`lock${i}`, '0123456789abcdef'])),
    },
    accepted: Array.from({ length: RECORDED_ACCEPTANCE_LIMITS.acceptances }, (_, i) => ({
      pullRequest: i + 1,
      by: 'b'.repeat(RECORDED_ACCEPTANCE_LIMITS.by),
      reason: 'r'.repeat(RECORDED_ACCEPTANCE_LIMITS.reason),
      benchmarks: 'g'.repeat(RECORDED_ACCEPTANCE_LIMITS.benchmarks),
      rows: Array.from({ length: RECORDED_ACCEPTANCE_LIMITS.rows }, () => ({ benchmark: 'x', metric: 'time', change: 0.1 })),
    })),
  };
}

describe('writers at the limits their readers document', () => {
  test("the limits in code are the schema's: one rule for both sides", () => {
    const env = schema.properties.environment.properties;
    assert.equal(env.kernel.maxLength, ENVIRONMENT_LIMITS.kernel);
    assert.equal(env.microcode.maxLength, ENVIRONMENT_LIMITS.microcode);
    assert.deepEqual([env.toolchains.maxProperties, env.toolchains.additionalProperties.maxLength], [50, ENVIRONMENT_LIMITS.toolchains.chars]);
    assert.deepEqual([env.flags.maxProperties, env.flags.additionalProperties.maxLength], [ENVIRONMENT_LIMITS.flags.entries, ENVIRONMENT_LIMITS.flags.chars]);
    assert.equal(env.lockfiles.maxProperties, ENVIRONMENT_LIMITS.lockfiles.entries);
    const acc = schema.properties.accepted;
    assert.deepEqual(
      [
        acc.maxItems,
        acc.items.properties.by.maxLength,
        acc.items.properties.reason.maxLength,
        acc.items.properties.benchmarks.maxLength,
        acc.items.properties.rows.maxItems,
      ],
      [
        RECORDED_ACCEPTANCE_LIMITS.acceptances,
        RECORDED_ACCEPTANCE_LIMITS.by,
        RECORDED_ACCEPTANCE_LIMITS.reason,
        RECORDED_ACCEPTANCE_LIMITS.benchmarks,
        RECORDED_ACCEPTANCE_LIMITS.rows,
      ],
    );
    assert.equal(schema.$defs.benchmark.properties.id.maxLength, MAX_BENCHMARK_ID_LENGTH);
    assert.equal(MAX_REASON_CHARS, RECORDED_ACCEPTANCE_LIMITS.reason);
    assert.ok(MAX_GLOB_CHARS <= RECORDED_ACCEPTANCE_LIMITS.benchmarks);
  });

  test('a run at every limit: the history, the baseline folder and the two-stage handoff write it, and their readers read it back', async () => {
    const set = atLimits();
    assert.deepEqual(read(storableResultSet(set, 'baseline')), set);
    const history = openFolder(tempDir('perf-gate-limits-history-'));
    const entry = await history.append(set, {});
    assert.deepEqual((await history.read(entry)).environment, set.environment);
    const dir = tempDir('perf-gate-limits-handoff-');
    writeHandoff(dir, { pullRequest: 1, headSha: 'a'.repeat(40), gate: 'perf-gate' }, set);
    assert.equal(readHandoffFolder(dir).results.benchmarks[0]!.id.length, MAX_BENCHMARK_ID_LENGTH);
  });

  test('one past a limit: the writers refuse before writing, naming the field', async () => {
    const over = { ...atLimits(), benchmarks: [{ ...atLimits().benchmarks[0]!, id: 'i'.repeat(MAX_BENCHMARK_ID_LENGTH + 1) }] };
    assert.throws(
      () => storableResultSet(over, 'baselines/results.json'),
      (e: unknown) => e instanceof InputError && e.key === 'benchmarks.0.id',
    );
    const folder = tempDir('perf-gate-limits-over-');
    await assert.rejects(openFolder(folder).append(over, {}), /benchmarks\.0\.id: perf-gate will not store a run its own reader refuses/);
    assert.equal(existsSync(join(folder, 'vm')), false, 'nothing written');
    const dir = tempDir('perf-gate-limits-handoff-over-');
    assert.throws(() => writeHandoff(dir, { pullRequest: 1, headSha: 'a'.repeat(40), gate: 'perf-gate' }, over), /benchmarks\.0\.id/);
    assert.equal(existsSync(join(dir, 'results.json')), false, 'nothing written');
  });

  test('what the runner records is bounded, never refused: a long CFLAGS, 52 flags, a 5,000-character accept glob', () => {
    const flags = Object.fromEntries(Array.from({ length: 52 }, (_, i) => [`s${String(i).padStart(2, '0')}:CFLAGS`, i === 0 ? '-O2 '.repeat(700) : '-O2']));
    const env = boundedEnvironment({ flags, kernel: 'k'.repeat(300) });
    assert.equal(Object.keys(env.flags!).length, 50);
    assert.equal(env.flags!['s00:CFLAGS']!.length, 2000);
    assert.ok(env.flags!['s00:CFLAGS']!.endsWith('…'));
    const accepted = boundedAcceptances([{ pullRequest: 3, by: 'ana', reason: 'ok', benchmarks: 'g'.repeat(5000), rows: [] }]);
    const set = { ...atLimits(), environment: env, accepted };
    assert.deepEqual(read(set).environment, env);
  });

  test('a ledger at its limits round-trips through its reader', () => {
    const rows = Array.from({ length: 100 }, (_, i) =>
      row({ benchmark: `s/${'n'.repeat(150)}${i}`, status: 'regressed', change: 0.1, tolerance: 0.05, failsGate: true }),
    );
    let ledger = ledgerOf(reportOf(rows), 'c'.repeat(40), [], { failOn: 'fail', inconclusive: 'pass', selfReported: false });
    for (let i = 0; i < 50; i++) {
      const outcome = recordAcceptance(ledger, {
        benchmarks: `s/${'*'.repeat(MAX_GLOB_CHARS - 2)}`,
        reason: 'r'.repeat(MAX_REASON_CHARS),
        by: 'ana',
        at: '2026-11-20T10:00:00Z',
        source: { kind: 'comment', url: 'https://github.example.com/acme/x/pull/1#issuecomment-1' },
      });
      assert.ok(outcome.accepted);
      ledger = outcome.ledger;
    }
    const back = decodeLedger(encodeLedger(ledger, MAX_LEDGER_CHARS));
    assert.ok(back, 'the reader reads what the writer wrote');
    assert.equal(back.rows.length + (back.leftOut ?? 0), 100);
  });
});

describe('mode main with inputs past the limits: the run is stored, and the next run reads it as its baseline', () => {
  test('a harness name of exactly 4,096 characters, CFLAGS of 3,000, and 26 suites of two flags each', async () => {
    const repo = tempDir('perf-gate-limits-main-');
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
        encoding: 'utf8',
        // Committed before the runs' clock: the baseline search reads runs no older than a day before the commit.
        env: { ...process.env, GIT_AUTHOR_DATE: '2026-11-28T09:00:00Z', GIT_COMMITTER_DATE: '2026-11-28T09:00:00Z' },
      });
    git('init', '-q', '--initial-branch=main');
    const fixture = JSON.parse(readFileSync(new URL('../fixtures/hyperfine/two-commands.json', import.meta.url), 'utf8')) as {
      results: { command: string }[];
    };
    writeFileSync(join(repo, 'ok.json'), JSON.stringify(fixture));
    writeFileSync(join(repo, 'long.json'), JSON.stringify({ results: [{ ...fixture.results[0]!, command: 'n'.repeat(MAX_BENCHMARK_ID_LENGTH) }] }));
    const suite = (i: number) =>
      `  - name: s${i}\n    run: cp ${i === 0 ? 'long.json' : 'ok.json'} {output}\n    format: hyperfine\n    env:\n      CFLAGS: "${i === 1 ? '-O2 '.repeat(750) : '-O2'}"\n      LDFLAGS: "-s"\n`;
    writeFileSync(
      join(repo, 'perf-gate.yml'),
      `version: 1\nconfirm: off\nhistory: history\nsuites:\n${Array.from({ length: 26 }, (_, i) => suite(i)).join('')}`,
    );
    writeFileSync(join(repo, '.gitignore'), 'history/\nout/\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'x');
    const first = await runCli(['run', '--mode', 'main', '--out', 'out/1'], repo, process.env, '2026-11-28T10:00:00Z');
    assert.ok(first.status === 0 || first.status === 1, first.stdout + first.stderr);
    assert.match(first.stdout, /s0\/n{20}.*failed|failed.*s0/s, 'the over-long name is a failed row of its suite');
    const verify = await runCli(['history', 'verify', '--history', 'history'], repo, process.env);
    assert.equal(verify.status, 0, verify.stdout);
    assert.match(verify.stdout, /holding 1 run\(s\)/);
    const second = await runCli(['run', '--mode', 'main', '--out', 'out/2'], repo, process.env, '2026-11-28T10:05:00Z');
    assert.match(second.stdout, /baseline: the run of [0-9a-f]{12}/, second.stdout);
    assert.doesNotMatch(second.stdout + second.stderr, /unreadable|skipped/);
  });
});
