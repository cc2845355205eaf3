import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePerfGateConfig, type SuiteConfig } from '../../src/config/perf-gate-config.js';
import { parseOutputFile } from '../../src/pipeline/output-parser.js';
import { validateResultSet } from '../../src/adapters/result-set.js';
import { RESULT_SET_SCHEMA, rowKey, type ResultSet, type RowStatus } from '../../src/model/index.js';
import { roundsToReach, runAb, type AbContext, type Classifier } from '../../src/runner/ab.js';
import { gateClassifier } from '../../src/pipeline/measure.js';
import { EMPTY_BUDGETS } from '../../src/model/index.js';
import { wilcoxonSignedRank } from '../../src/stats/index.js';
import { mockSpawner, type MockOutcome } from '../support/mock-spawner.js';
import { logProgress } from '../../src/runner/progress.js';
import type { SpawnRequest } from '../../src/runner/spawn.js';
import { tempDir } from '../support/temp.js';

/** A harness output (a ResultSet) with one time sample per benchmark. */
function output(times: Record<string, number>): string {
  return JSON.stringify({
    schema: RESULT_SET_SCHEMA,
    created: '2026-11-21T12:00:00Z',
    benchmarks: Object.entries(times).map(([id, t]) => ({ id, status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: [t] } } })),
  });
}

function side(r: SpawnRequest): 'base' | 'head' {
  const s = r.env.PERF_GATE_SIDE;
  assert.ok(s === 'base' || s === 'head', 'every A/B process is told its side');
  return s;
}

/** Ratio-of-medians classifier: deterministic, so these tests check the A/B mechanics, not statistics. */
function ratioClassifier(log: ResultSet[][] = [], decideAfter = 0): Classifier {
  return (base, head) => {
    log.push([base, head]);
    const out = new Map<string, RowStatus>();
    for (const h of head.benchmarks) {
      const b = base.benchmarks.find((x) => x.id === h.id);
      for (const [name, m] of Object.entries(h.metrics)) {
        const bm = b?.metrics[name];
        if (!bm?.samples || !m.samples) continue;
        assert.equal(base.design, 'interleaved');
        const med = (xs: number[]): number => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
        const ratio = med(m.samples) / med(bm.samples);
        const status: RowStatus = m.samples.length < decideAfter ? 'inconclusive' : ratio > 1.05 ? 'regressed' : ratio < 0.95 ? 'improved' : 'unchanged';
        out.set(rowKey(h.id, name), status);
      }
    }
    return out;
  };
}

function setup(yaml: string, respond: (r: SpawnRequest, call: number) => MockOutcome, classify: Classifier) {
  const dir = tempDir('pg-ab-');
  const head = join(dir, 'head');
  const base = join(dir, 'base');
  mkdirSync(head);
  mkdirSync(base);
  const suites: SuiteConfig[] = [...parsePerfGateConfig(`version: 1\n${yaml}`, 'perf-gate.yml', head).suites];
  const spawner = mockSpawner(respond);
  let log = '';
  const ctx: AbContext = {
    spawner,
    parse: parseOutputFile,
    outDir: join(dir, 'out'),
    env: {},
    progress: logProgress({ githubActions: false, write: (t) => void (log += t), clock: () => 0 }),
    classify,
    created: '2026-11-21T12:00:00Z',
  };
  return { suites, spawner, ctx, checkouts: { base, head }, log: () => log };
}

describe('interleaved A/B rounds (mock measurement source)', () => {
  test('each round runs both sides once in seeded random order; samples are index-aligned by round', async () => {
    // A drift that moves whole rounds by up to ±20 %: pairing by round must cancel it exactly.
    const respond = (r: SpawnRequest, call: number): MockOutcome => {
      if (r.outputPath === null) return {};
      const round = Math.floor(call / 2);
      const level = 1 + 0.2 * Math.sin(round);
      return { output: output({ work: 0.01 * level * (side(r) === 'head' ? 1.1 : 1) }) };
    };
    const yaml = 'ab: { rounds: 8, max-rounds: 8, confirm: false, seed: 5 }\nsuites:\n  - { name: s, run: "bench > {output}", build: make }\n';
    const a = setup(yaml, respond, ratioClassifier());
    const outcome = await runAb(a.suites, a.checkouts, a.ctx);
    const builds = a.spawner.calls.filter((c) => c.outputPath === null);
    assert.deepEqual(
      builds.map((c) => [side(c), c.cwd]),
      [
        ['base', a.checkouts.base],
        ['head', a.checkouts.head],
      ],
    );
    const runs = a.spawner.calls.filter((c) => c.outputPath !== null);
    assert.equal(runs.length, 16);
    const order = Array.from({ length: 8 }, (_, i) => runs[2 * i]!.env.PERF_GATE_SIDE).join(',');
    for (let i = 0; i < 8; i++) assert.notEqual(side(runs[2 * i]!), side(runs[2 * i + 1]!), `round ${i + 1} runs each side once`);
    assert.ok(order.includes('base') && order.includes('head'), `both orders occur: ${order}`);
    for (const c of runs) assert.equal(c.cwd, side(c) === 'base' ? a.checkouts.base : a.checkouts.head);

    const b = outcome.base.benchmarks[0]!.metrics.time!.samples!;
    const h = outcome.head.benchmarks[0]!.metrics.time!.samples!;
    assert.equal(outcome.base.design, 'interleaved');
    assert.equal(outcome.head.design, 'interleaved');
    assert.equal(outcome.head.benchmarks[0]!.id, 's/work');
    assert.equal(b.length, 8);
    assert.equal(h.length, 8);
    for (let i = 0; i < 8; i++) assert.ok(Math.abs(h[i]! / b[i]! - 1.1) < 1e-9, `pair ${i} is one round`);
    // One value a round: the round's own values would be its samples again, so none are kept.
    assert.equal(outcome.head.benchmarks[0]!.metrics.time!.roundSamples, undefined);

    // The same seed gives the same order; another seed another one.
    const again = setup(yaml, respond, ratioClassifier());
    await runAb(again.suites, again.checkouts, again.ctx);
    const orderAgain = again.spawner.calls
      .filter((c) => c.outputPath !== null)
      .filter((_, i) => i % 2 === 0)
      .map((c) => c.env.PERF_GATE_SIDE)
      .join(',');
    assert.equal(orderAgain, order);
    const other = setup(yaml.replace('seed: 5', 'seed: 6'), respond, ratioClassifier());
    await runAb(other.suites, other.checkouts, other.ctx);
    const orderOther = other.spawner.calls
      .filter((c) => c.outputPath !== null)
      .filter((_, i) => i % 2 === 0)
      .map((c) => c.env.PERF_GATE_SIDE)
      .join(',');
    assert.notEqual(orderOther, order);
  });

  test("rounds of several values a side keep each round's own values (a flipping benchmark's levels), the median as the round's sample; the ResultSet reads back", async () => {
    // Five processes a round, each in one of two levels: the round's median is a mix, its values are not.
    const respond = (r: SpawnRequest, call: number): MockOutcome => {
      if (r.outputPath === null) return {};
      const times = Array.from({ length: 5 }, (_, k) => 0.01 * ((call + k) % 3 === 0 ? 1.5 : 1) * (1 + 0.001 * k));
      return {
        output: JSON.stringify({
          ...JSON.parse(output({ work: 0 })),
          benchmarks: [{ id: 'work', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: times } } }],
        }),
      };
    };
    const yaml = 'ab: { rounds: 6, max-rounds: 6, confirm: false, seed: 5 }\nsuites:\n  - { name: s, run: "bench > {output}" }\n';
    const a = setup(yaml, respond, ratioClassifier());
    const outcome = await runAb(a.suites, a.checkouts, a.ctx);
    const runs = a.spawner.calls.filter((c) => c.outputPath !== null);
    for (const set of [outcome.base, outcome.head]) {
      const time = set.benchmarks[0]!.metrics.time!;
      assert.equal(time.roundSamples!.length, 6);
      time.roundSamples!.forEach((values, i) => {
        assert.equal(values.length, 5);
        assert.equal(time.samples![i], [...values].sort((x, y) => x - y)[2], `round ${i + 1}'s sample is its median`);
      });
      const back = validateResultSet(JSON.parse(JSON.stringify(set)), 'results.json');
      assert.deepEqual(back.benchmarks[0]!.metrics.time!.roundSamples, time.roundSamples);
    }
    // Round i's values are the ones that side's i-th process printed.
    const firstHead = runs.findIndex((c) => side(c) === 'head');
    assert.equal(outcome.head.benchmarks[0]!.metrics.time!.roundSamples![0]![0], 0.01 * (firstHead % 3 === 0 ? 1.5 : 1));
  });

  test('adaptive: only units with inconclusive benchmarks get more rounds, up to max-rounds', async () => {
    const respond = (r: SpawnRequest): MockOutcome => (r.outputPath === null ? {} : { output: output({ x: 1 }) });
    const yaml = `ab: { rounds: 4, step: 3, max-rounds: 12, confirm: false }
suites:
  - { name: decided, run: "bench > {output}" }
  - name: undecided
    run: "bench > {output}"
    ab: { max-rounds: 9 }
`;
    const seen: ResultSet[][] = [];
    // "undecided" never becomes decided; "decided" is decided at once.
    const classify: Classifier = (base, head) => {
      const statuses = new Map(ratioClassifier(seen)(base, head));
      for (const hb of head.benchmarks) if (hb.id.startsWith('undecided/')) statuses.set(rowKey(hb.id, 'time'), 'inconclusive');
      return statuses;
    };
    const a = setup(yaml, respond, classify);
    const outcome = await runAb(a.suites, a.checkouts, a.ctx);
    assert.deepEqual(outcome.rounds, { decided: 4, undecided: 9 });
    assert.equal(outcome.head.benchmarks.find((b) => b.id === 'undecided/x')!.metrics.time!.samples!.length, 9);
    assert.match(a.log(), /A\/B more rounds for inconclusive benchmarks: undecided, 3 round\(s\)/);
    assert.match(a.log(), /A\/B more rounds for inconclusive benchmarks: undecided, 2 round\(s\)/, 'the last step stops at max-rounds');
  });

  test('later rounds run only the rows still open: added rounds the inconclusive ones, fresh rounds the regressed ones; pairs stay aligned', async () => {
    // Four benchmarks; "a" is 20 % slower on the head, "b" stays inconclusive, "c" and "d" are decided at once.
    const respond = (r: SpawnRequest): MockOutcome => {
      if (r.outputPath === null) return {};
      const only = /--only (\S+)/.exec(r.command)?.[1]?.split(',') ?? ['a', 'b', 'c', 'd'];
      const times: Record<string, number> = { a: side(r) === 'head' ? 0.012 : 0.01, b: 0.01, c: 0.01, d: 0.01 };
      return { output: output(Object.fromEntries(only.map((n) => [n, times[n]!]))) };
    };
    const yaml = 'ab: { rounds: 4, step: 2, max-rounds: 8, confirm-rounds: 3, seed: 2 }\nsuites:\n  - { name: s, run: "bench > {output}" }\n';
    const classify: Classifier = (base, head) => {
      const statuses = new Map(ratioClassifier()(base, head));
      statuses.set(rowKey('s/b', 'time'), 'inconclusive');
      return statuses;
    };
    const a = setup(yaml, respond, classify);
    const narrowed: string[][] = [];
    a.ctx.narrow = (suite, ids) => {
      narrowed.push([...ids]);
      return { ...suite, run: `${suite.run} --only ${ids.map((id) => id.slice('s/'.length)).join(',')}` };
    };
    const outcome = await runAb(a.suites, a.checkouts, a.ctx);
    const runs = a.spawner.calls.filter((c) => c.outputPath !== null);
    // 4 first rounds of all four, 4 more (2 + 2) of b alone, then 3 fresh rounds of a alone: two processes each.
    assert.deepEqual(
      runs.map((c) => /--only (\S+)/.exec(c.command)?.[1] ?? 'all'),
      [...Array(8).fill('all'), ...Array(8).fill('b'), ...Array(6).fill('a')],
    );
    assert.deepEqual(narrowed, [['s/b'], ['s/b'], ['s/a']]);
    const samples = (set: ResultSet, id: string): number[] => set.benchmarks.find((b) => b.id === `s/${id}`)!.metrics.time!.samples!;
    assert.equal(samples(outcome.head, 'b').length, 8);
    assert.equal(samples(outcome.base, 'b').length, 8);
    assert.equal(samples(outcome.head, 'c').length, 4);
    assert.deepEqual(samples(outcome.head, 'a'), [0.012, 0.012, 0.012], 'the fresh rounds replace the first ones');
    assert.equal(outcome.confirmations.get(rowKey('s/a', 'time')), 'confirmed');
  });

  test('fresh rounds of the regressed row alone are decided among every row, as the verdict decides them: rounds are added until the row holds there', async () => {
    // Twelve benchmarks, "a" 20 % slower on the head; every value jitters a little, so the other rows are not significant.
    let call = 0;
    const names = 'abcdefghijkl'.split('');
    const respond = (r: SpawnRequest): MockOutcome => {
      if (r.outputPath === null) return {};
      const only = /--only (\S+)/.exec(r.command)?.[1]?.split(',') ?? names;
      call++;
      return {
        output: output(Object.fromEntries(only.map((n, k) => [n, 0.01 * (1 + 0.004 * Math.sin(call * 7 + k)) * (n === 'a' && side(r) === 'head' ? 1.2 : 1)]))),
      };
    };
    const yaml = 'ab: { rounds: 8, max-rounds: 8, confirm-rounds: 8, seed: 3 }\nsuites:\n  - { name: s, run: "bench > {output}" }\n';
    const a = setup(yaml, respond, gateClassifier(EMPTY_BUDGETS));
    a.ctx.alpha = 0.01;
    a.ctx.narrow = (suite, ids) => ({ ...suite, run: `${suite.run} --only ${ids.map((id) => id.slice('s/'.length)).join(',')}` });
    const outcome = await runAb(a.suites, a.checkouts, a.ctx);
    const key = rowKey('s/a', 'time');
    // Eight rounds that all agree give p = 2/256: under α alone, not after Benjamini–Hochberg over twelve rows.
    assert.ok(outcome.confirmRounds.s! > 8, `confirmation rounds ${outcome.confirmRounds.s}`);
    assert.equal(outcome.confirmations.get(key), 'confirmed');
    assert.equal(gateClassifier(EMPTY_BUDGETS)(outcome.base, outcome.head).get(key), 'regressed', 'the verdict agrees with the confirmation');
    const fresh = a.spawner.calls.filter((c) => c.outputPath !== null && c.logPath.includes('confirm-'));
    assert.ok(fresh.length > 0 && fresh.every((c) => c.command.endsWith('--only a')), 'fresh rounds run the regressed benchmark alone');
  });

  test('rows that max-rounds could never decide get the rounds the paired test needs to reach α over all of them', async () => {
    // Two benchmarks, one 2x slower on the head; each round jitters both a little. Decided by the real gate.
    let call = 0;
    const respond = (r: SpawnRequest): MockOutcome => {
      if (r.outputPath === null) return {};
      const jitter = 1 + 0.003 * Math.sin(call++);
      return { output: output({ slow: 0.01 * jitter * (side(r) === 'head' ? 2 : 1), same: 0.02 * jitter }) };
    };
    const yaml = 'ab: { rounds: 8, max-rounds: 8, confirm-rounds: 8, seed: 3 }\nsuites:\n  - { name: s, run: "bench > {output}" }\n';
    const slow = rowKey('s/slow', 'time');

    // Eight rounds that all agree give p = 2/256, and 2 × 2/256 > 0.01: undecidable at max-rounds 8.
    const capped = setup(yaml, respond, gateClassifier(EMPTY_BUDGETS));
    const without = await runAb(capped.suites, capped.checkouts, capped.ctx);
    assert.deepEqual(without.rounds, { s: 8 });
    assert.equal(without.confirmations.size, 0);
    assert.equal(gateClassifier(EMPTY_BUDGETS)(without.base, without.head).get(slow), 'inconclusive');

    call = 0;
    const reaching = setup(yaml, respond, gateClassifier(EMPTY_BUDGETS));
    const outcome = await runAb(reaching.suites, reaching.checkouts, { ...reaching.ctx, alpha: 0.01 });
    assert.deepEqual(outcome.rounds, { s: roundsToReach(0.01, 2) });
    assert.equal(roundsToReach(0.01, 2), 9);
    assert.deepEqual([...outcome.confirmations.entries()], [[slow, 'confirmed']]);
    assert.deepEqual(outcome.confirmRounds, { s: 9 });
    assert.match(
      reaching.log(),
      /more rounds for inconclusive benchmarks \(9 at most, beyond max-rounds: fewer cannot reach α 0\.01 over 2 rows\): s, 1 round\(s\)/,
    );
    assert.match(reaching.log(), /more confirmation rounds \(9 at most/);
  });

  test("an earlier comparison's round files in the same folder are gone: the folder holds this comparison's rounds only", async () => {
    const respond = (r: SpawnRequest): MockOutcome => (r.outputPath === null ? {} : { output: output({ x: 0.01 }) });
    const a = setup('ab: { rounds: 2, max-rounds: 2, confirm: false }\nsuites:\n  - { name: s, run: "bench > {output}" }\n', respond, ratioClassifier());
    const rounds = join(a.ctx.outDir, 's', 'ab');
    mkdirSync(rounds, { recursive: true });
    writeFileSync(join(rounds, 'confirm-001-base.output'), 'BenchmarkOld 1 ns/op\n');
    await runAb(a.suites, a.checkouts, a.ctx);
    assert.deepEqual(
      readdirSync(rounds)
        .filter((f) => f.endsWith('.output'))
        .sort(),
      ['round-001-base.output', 'round-001-head.output', 'round-002-base.output', 'round-002-head.output'],
    );
  });

  test('roundsToReach: at that count every round agreeing is significant after Benjamini–Hochberg over the rows, one round fewer is not', () => {
    for (const [alpha, rows] of [
      [0.01, 1],
      [0.01, 2],
      [0.01, 20],
      [0.05, 200],
      [0.001, 7],
    ] as const) {
      const n = roundsToReach(alpha, rows);
      const p = (k: number): number => wilcoxonSignedRank(Array.from({ length: k }, (_, i) => 1 + i)).p;
      assert.ok(p(n) * rows < alpha, `${rows} rows at α ${alpha}: ${n} rounds reach it`);
      assert.ok(p(n - 1) * rows >= alpha, `${rows} rows at α ${alpha}: ${n - 1} rounds do not`);
    }
    assert.equal(roundsToReach(undefined, 5), 0);
  });

  test('a regression seen in the first rounds only is not confirmed by fresh rounds, and the fresh samples are kept', async () => {
    // The head is 20 % slower during its first 6 rounds only (a noisy neighbour), then equal.
    let headRuns = 0;
    const respond = (r: SpawnRequest): MockOutcome => {
      if (r.outputPath === null) return {};
      if (side(r) === 'base') return { output: output({ t: 0.01, steady: 0.02 }) };
      headRuns++;
      return { output: output({ t: headRuns <= 6 ? 0.012 : 0.01, steady: 0.03 }) };
    };
    const a = setup('ab: { rounds: 6, max-rounds: 6, confirm-rounds: 5 }\nsuites:\n  - { name: s, run: "bench > {output}" }\n', respond, ratioClassifier());
    const outcome = await runAb(a.suites, a.checkouts, a.ctx);
    assert.deepEqual(
      [...outcome.confirmations.entries()],
      [
        [rowKey('s/t', 'time'), 'not-confirmed'],
        [rowKey('s/steady', 'time'), 'confirmed'],
      ],
    );
    const t = outcome.head.benchmarks.find((b) => b.id === 's/t')!.metrics.time!.samples!;
    assert.deepEqual(t, [0.01, 0.01, 0.01, 0.01, 0.01], 'the confirmation rounds replace the first ones');
    assert.equal(outcome.base.benchmarks.find((b) => b.id === 's/t')!.metrics.time!.samples!.length, 5);
    assert.equal(a.spawner.calls.filter((c) => c.outputPath !== null).length, 2 * (6 + 5));
    assert.match(a.log(), /A\/B confirming regressions in fresh rounds: s, 5 round\(s\)/);
  });

  test("a crash on one side fails that side's rows; sweep points are separate units; CPUs are pinned", async () => {
    const respond = (r: SpawnRequest): MockOutcome => {
      if (r.outputPath === null) return {};
      const n = r.env.PERF_GATE_PARAM_N;
      if (n === '2' && side(r) === 'head') return { exitCode: 139, log: 'Segmentation fault\n' };
      return { output: output({ b: 0.001 * Number(n) }) };
    };
    const a = setup(
      'ab: { rounds: 3, max-rounds: 3, pin: "1" }\nsuites:\n  - { name: s, run: "bench {n} > {output}", params: { n: [1, 2] } }\n',
      respond,
      ratioClassifier(),
    );
    const outcome = await runAb(a.suites, a.checkouts, a.ctx);
    assert.ok(a.spawner.calls.every((c) => c.outputPath === null || c.pin === '1'));
    const head = new Map(outcome.head.benchmarks.map((b) => [b.id, b]));
    assert.equal(head.get('s/b[n=1]')?.status, 'ok');
    assert.equal(head.get('s/b[n=1]')?.metrics.time?.samples?.length, 3);
    const crashed = head.get('s[n=2]');
    assert.equal(crashed?.status, 'failed');
    assert.equal(crashed?.error?.exitCode, 139);
    assert.match(crashed?.error?.logTail ?? '', /Segmentation fault/);
    assert.deepEqual(outcome.rounds, { 's[n=1]': 3, 's[n=2]': 0 });
  });
});
