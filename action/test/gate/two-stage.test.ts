import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  decide,
  mergeStages,
  screenReport,
  screenRow,
  screenedSlowdown,
  screenSuspectRate,
  worseBeyondToleranceP,
  type TwoStages,
  type VerdictRow,
} from '../../src/gate/index.js';
import { EMPTY_BUDGETS, newResultSet, rowKey, type BenchmarkResult } from '../../src/model/index.js';
import { reportOf, row } from '../report/handwritten-reports.js';

/** A row whose log-scale interval is estimate ± 1.96·se, as the comparison builds it. */
function logRow(change: number, se: number, extra: Partial<VerdictRow> = {}): VerdictRow {
  const shift = Math.log1p(change);
  return row({
    benchmark: 'b',
    status: 'inconclusive',
    change,
    ci: [Math.expm1(shift - 1.959964 * se), Math.expm1(shift + 1.959964 * se)],
    ciLevel: 0.95,
    tolerance: 0.05,
    ...extra,
  });
}

const STAGES: TwoStages = {
  screen: { seconds: 10, rows: 3, suspects: 1, driftRuns: 20 },
  confirm: { seconds: 30, base: 'a'.repeat(40), suites: [{ suite: 's', rows: ['s/slow time'], rounds: 10, confirmRounds: 12 }], skipped: null },
};

describe('the screen (first stage)', () => {
  test('the one-sided p of "worse by more than the tolerance" is the normal upper tail on the log scale', () => {
    // (ln 1.1 − ln 1.05) / 0.02 = 2.326, the 99th percentile: p = 0.01.
    assert.ok(Math.abs(worseBeyondToleranceP(logRow(0.1, 0.02))! - 0.01) < 2e-4);
    // Exactly at the tolerance: p = 0.5, whatever the spread.
    assert.ok(Math.abs(worseBeyondToleranceP(logRow(0.05, 0.03))! - 0.5) < 1e-9);
    // A throughput (higher is better) is worse when it falls: −9.09 % is ln(1/1.1).
    assert.ok(Math.abs(worseBeyondToleranceP(logRow(1 / 1.1 - 1, 0.02, { direction: 'higher' }))! - 0.01) < 2e-4);
    assert.equal(worseBeyondToleranceP(logRow(0.1, 0.02, { ci: null })), null);
  });

  test('how often an unchanged row is a suspect at a drift: the normal tail beyond the tolerance plus the screen quantile', () => {
    // √2·ln 1.02 = 0.0280; ln 1.05 / 0.0280 = 1.742: an estimate beyond the tolerance, upper tail 0.040738 (scipy.stats.norm.sf),
    // whatever level below one half; at 0.7, 1.742 + z(0.3) = 1.218: 0.111653.
    assert.ok(Math.abs(screenSuspectRate(0.02, 0.05, 0.3) - 0.040738) < 1e-5);
    assert.ok(Math.abs(screenSuspectRate(0.02, 0.05, 0.01) - 0.040738) < 1e-5);
    assert.ok(Math.abs(screenSuspectRate(0.02, 0.05, 0.7) - 0.111653) < 1e-5);
    assert.equal(screenSuspectRate(0, 0.05), 0);
    assert.ok(screenSuspectRate(0.1, 0.05) > screenSuspectRate(0.05, 0.05));
  });

  test('suspects: failed, regressed, noisier and slower, and evidence of a slowdown beyond the tolerance', () => {
    assert.deepEqual(screenRow(row({ benchmark: 'x', status: 'failed' })), { suspect: true, why: 'failed', p: null });
    assert.equal(screenRow(logRow(0.2, 0.02, { status: 'regressed' })).suspect, true);
    const noisier = screenRow(logRow(0.01, 0.02, { flags: ['noisier'] }));
    assert.equal(noisier.suspect && noisier.why, 'noisier');
    // Noisier but faster is no suspect.
    assert.equal(screenRow(logRow(-0.03, 0.02, { flags: ['noisier'] })).suspect, false);
    // +9 % at ±3 % drift: not significant for the gate, but its estimate is beyond the 5 % tolerance, so the screen sends it on.
    const nine = screenRow(logRow(0.09, 0.03));
    assert.equal(nine.suspect, true);
    assert.equal(nine.suspect && nine.why, 'estimate-beyond-tolerance');
    // At a screen level above one half, the one-sided test also sends on a row just under the tolerance (p of "worse than 5 %" ≈ 0.45).
    const under = screenRow(logRow(0.048, 0.02), 0.6);
    assert.equal(under.suspect && under.why, 'worse-beyond-tolerance');
  });

  test('clear: an interval wide enough to allow a slowdown is not a suspect by itself, and says the slowdown it cannot rule out', () => {
    // +1 % ± 6 %: "not provably unchanged", yet no sign of a slowdown beyond 5 %.
    const call = screenRow(logRow(0.01, 0.03));
    assert.equal(call.suspect, false);
    assert.ok(!call.suspect && Math.abs(call.bound! - Math.expm1(Math.log1p(0.01) + 1.959964 * 0.03)) < 1e-9);
    // New and missing rows are clear with no bound.
    assert.deepEqual(screenRow(row({ benchmark: 'n', status: 'new', baseline: null, change: null, ci: null })), { suspect: false, bound: null, blind: false });
  });

  test('the screen agrees with the gate: a 30 % slowdown with samples is a suspect, identical samples are clear', () => {
    const samples = (level: number): number[] => Array.from({ length: 10 }, (_v, i) => level * (1 + 0.01 * ((i * 7) % 5)));
    const bench = (id: string, level: number): BenchmarkResult => ({
      id,
      status: 'ok',
      metrics: { time: { unit: 's', direction: 'lower', samples: samples(level) } },
    });
    const report = decide(
      newResultSet('t', [bench('slow', 0.01), bench('same', 0.01)]),
      newResultSet('t', [bench('slow', 0.013), bench('same', 0.01)]),
      EMPTY_BUDGETS,
    );
    const screened = screenReport(report);
    assert.deepEqual(
      screened.suspects.map((r) => r.benchmark),
      ['slow'],
    );
  });
});

describe('issue 38: the screen and benchmarks that flip', () => {
  test('a flipping benchmark whose fast level moved onto the slow one reads as a change of the mix; its runs are slower than the tolerance, so it is a suspect', () => {
    // The baseline flips between 25.5 µs and 28.7 µs (40 % slow, as a Go benchmark's alignment did here); the current
    // does 10 % more work and drew the fast level only: 28.05 µs, which the levels read as the slow level, a little faster.
    const values = (n: number, at: (i: number) => number): number[] => Array.from({ length: n }, (_v, i) => at(i) * (1 + 0.004 * ((i * 7) % 5)));
    const bench = (id: string, samples: number[]): BenchmarkResult => ({ id, status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples } } });
    const base = values(60, (i) => (i % 5 < 2 ? 28.7e-6 : 25.5e-6));
    const moved = values(10, () => 25.5e-6 * 1.1);
    const mixOnly = values(20, (i) => (i % 5 < 4 ? 28.7e-6 : 25.5e-6));
    const report = decide(
      newResultSet('t', [bench('moved', base), bench('mix', base)]),
      newResultSet('t', [bench('moved', moved), bench('mix', mixOnly)]),
      EMPTY_BUDGETS,
    );
    const moved_ = report.rows.find((r) => r.benchmark === 'moved')!;
    assert.ok(moved_.flags.includes('flips') && moved_.change! < 0.05, `the levels read it as within the tolerance: ${moved_.change}`);
    const call = screenRow(moved_);
    assert.ok(call.suspect && call.why === 'flips-values-beyond-tolerance', JSON.stringify(call));
    // The second stage measures the likeliest first by what the screen saw: the runs' +10 %, not the levels' reading.
    const seen = screenedSlowdown(moved_);
    assert.ok(seen > 0.08 && seen < 0.12 && seen > moved_.change!, `screened slowdown ${seen}`);
    // The same rule sends a change of the mix on too (the values are slower): the interleaved rounds decide it, the screen fails nothing.
    const mix = report.rows.find((r) => r.benchmark === 'mix')!;
    assert.ok(mix.flags.includes('flips') && mix.status !== 'regressed', mix.status);
    // Without the flag the estimate rule alone decides: the row above would have been cleared.
    const unflagged = screenRow({ ...moved_, flags: moved_.flags.filter((f) => f !== 'flips') });
    assert.equal(unflagged.suspect, false);
  });

  test("a side in one level that is neither of the baseline's is a suspect when, read against the other level, it is slower than the tolerance", () => {
    // The baseline flips between 19.4 µs and 21.9 µs, mostly slow (so its runs read as one distribution sit in the
    // slow level); the current does 10 % more work in the fast level only: 21.34 µs, 2.5 % under the slow level.
    // Rounds-like sides (no between-run drift), so the one level is seen to be neither of the baseline's.
    const spread = (i: number): number => 1 + 0.01 * (((i * 7) % 11) / 10 - 0.5);
    const bench = (id: string, samples: number[]): BenchmarkResult => ({ id, status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples } } });
    const base = Array.from({ length: 40 }, (_v, i) => (i % 10 < 7 ? 21.9e-6 : 19.4e-6) * spread(i));
    const report = decide(
      newResultSet('t', [bench('w', base), bench('faster', base)]),
      newResultSet('t', [
        bench(
          'w',
          Array.from({ length: 30 }, (_v, i) => 19.4e-6 * 1.1 * spread(i + 3)),
        ),
        bench(
          'faster',
          Array.from({ length: 30 }, (_v, i) => 19.4e-6 * 0.975 * spread(i + 3)),
        ),
      ]),
      { ...EMPTY_BUDGETS, defaults: { ...EMPTY_BUDGETS.defaults, drift: 0 } },
    );
    const w = report.rows.find((r) => r.benchmark === 'w')!;
    assert.equal(w.status, 'inconclusive');
    assert.equal(w.reason.code, 'level-unknown');
    assert.ok(Math.log1p(screenedSlowdown(w)) < Math.log1p(0.05), `its runs read ${screenedSlowdown(w)}: the flips rule does not send it`);
    const call = screenRow(w);
    assert.ok(call.suspect && call.why === 'other-level-beyond-tolerance', JSON.stringify(call));
    // A level 2.5 % under the fast one reads −13 % against the slow one: faster either way, no suspect.
    const faster = report.rows.find((r) => r.benchmark === 'faster')!;
    assert.equal(faster.reason.code, 'level-unknown');
    assert.equal(screenRow(faster).suspect, false);
  });
});

describe('joining the stages', () => {
  const slow = logRow(0.2, 0.04, { benchmark: 's/slow', status: 'regressed', failsGate: true });
  const calm = logRow(0.0, 0.03, { benchmark: 's/calm' });
  const crashed = row({ benchmark: 's/crash', status: 'failed', failsGate: true, change: null, ci: null });
  const screen = reportOf([slow, calm, crashed], { verdict: 'fail' });

  test('a confirmed suspect takes the interleaved row; a clear row keeps the screen verdict; the verdict and counts follow', () => {
    const again = logRow(0.19, 0.01, {
      benchmark: 's/slow',
      status: 'regressed',
      failsGate: true,
      flags: ['paired', 'confirmed'],
      current: { value: 1, n: 22, mean: 1, median: 1, stddev: null, min: 1, max: 1 },
    });
    const merged = mergeStages({
      screened: screenReport(screen, undefined, (r) => r.benchmark !== 's/crash'),
      confirmed: reportOf([again]),
      unconfirmed: () => null,
      failSuspected: false,
      stages: STAGES,
    });
    const by = new Map(merged.rows.map((r) => [r.benchmark, r]));
    assert.equal(by.get('s/slow')!.change, 0.19);
    assert.deepEqual(by.get('s/slow')!.flags, ['paired', 'confirmed']);
    assert.deepEqual(by.get('s/slow')!.stage, { by: 'interleaved', rounds: 22, screen: { status: 'regressed', change: 0.2, ci: slow.ci, why: 'regressed' } });
    assert.equal(by.get('s/calm')!.status, 'inconclusive');
    assert.equal(by.get('s/calm')!.stage?.by, 'screen');
    // A row left out of the screen (its suite has confirm: off) keeps its one-stage verdict and no stage.
    assert.equal(by.get('s/crash')!.stage, undefined);
    assert.equal(merged.verdict, 'fail');
    assert.equal(merged.counts.regressed, 1);
    // s/calm's ±6 % interval is wider than its 5 % tolerance: the screen could not have cleared a 5 % slowdown there, and says so.
    const calmBound = Math.expm1(1.959964 * 0.03);
    assert.ok(Math.abs(merged.stages!.screen.blind!.bound - calmBound) < 1e-6);
    assert.deepEqual(merged.stages, { ...STAGES, screen: { ...STAGES.screen, blind: { rows: 1, bound: merged.stages!.screen.blind!.bound } } });
  });

  test('a suspect the interleaved rounds do not confirm passes', () => {
    const again = logRow(0.004, 0.01, { benchmark: 's/slow', status: 'unchanged', flags: ['paired'] });
    const merged = mergeStages({
      screened: screenReport(reportOf([slow, calm])),
      confirmed: reportOf([again]),
      unconfirmed: () => null,
      failSuspected: true,
      stages: STAGES,
    });
    assert.equal(merged.verdict, 'pass');
    assert.equal(merged.rows[0]!.status, 'unchanged');
  });

  test('a suspect that could not be measured again is suspected, fails only with fail-on suspected; a crash stays failed', () => {
    const why = { code: 'base-not-in-checkout' as const, commit: 'b'.repeat(40) };
    const merged = (failSuspected: boolean) =>
      mergeStages({
        screened: screenReport(screen),
        confirmed: null,
        unconfirmed: (key) => (key === rowKey('s/calm', 'time') ? null : why),
        failSuspected,
        stages: STAGES,
      });
    const lenient = merged(false);
    const strict = merged(true);
    const slowRow = lenient.rows.find((r) => r.benchmark === 's/slow')!;
    assert.equal(slowRow.status, 'suspected');
    assert.equal(slowRow.failsGate, false);
    assert.deepEqual(slowRow.stage, {
      by: 'screen',
      suspect: true,
      screen: { status: 'regressed', change: 0.2, ci: slow.ci, why: 'regressed' },
      unconfirmed: why,
    });
    assert.equal(lenient.counts.suspected, 1);
    // The crash still fails the gate either way.
    assert.equal(lenient.rows.find((r) => r.benchmark === 's/crash')!.status, 'failed');
    assert.equal(lenient.verdict, 'fail');
    assert.equal(strict.rows.find((r) => r.benchmark === 's/slow')!.failsGate, true);
    const withoutCrash = mergeStages({
      screened: screenReport(reportOf([slow, calm])),
      confirmed: null,
      unconfirmed: () => why,
      failSuspected: false,
      stages: STAGES,
    });
    assert.equal(withoutCrash.verdict, 'pass');
  });
});

describe('issue 36: a screen that never clears a visible slowdown', () => {
  test('drift wider than the tolerance: a +30 % row is a suspect however wide its interval; a +1 % row is cleared only of what could be seen', () => {
    // se 0.5 on the log scale: a ±33 % drift's width; the one-sided test alone would not send +30 % on (p ≈ 0.31).
    const wide = logRow(0.3, 0.5);
    assert.ok(worseBeyondToleranceP(wide)! > 0.3, 'the test alone would clear it');
    assert.deepEqual(screenRow(wide), { suspect: true, why: 'estimate-beyond-tolerance', p: worseBeyondToleranceP(wide) });
    const small = logRow(0.01, 0.5, { benchmark: 'c' });
    const call = screenRow(small);
    assert.ok(!call.suspect && call.blind && call.bound! > 1, JSON.stringify(call));
    const merged = mergeStages({
      screened: screenReport(reportOf([wide, small])),
      confirmed: null,
      unconfirmed: () => ({ code: 'no-base-commit' }),
      failSuspected: false,
      stages: STAGES,
    });
    assert.deepEqual(merged.stages?.screen.blind, { rows: 1, bound: call.suspect ? 0 : call.bound });
    const c = merged.rows.find((r) => r.benchmark === 'c')!;
    assert.deepEqual(c.stage, { by: 'screen', suspect: false, bound: call.suspect ? 0 : call.bound, blind: { estimate: 0.01, tolerance: 0.05 } });
  });

  test('a wide interval whose worse end stays within the tolerance has cleared the row: not blind', () => {
    // Measured −5 % [−10.4 %, +0.6 %] (a real row of the two-stage test): an improvement is not ruled out, a slowdown beyond 5 % is.
    const faster = row({ benchmark: 'a', status: 'inconclusive', change: -0.05, ci: [-0.104, 0.006], ciLevel: 0.95, tolerance: 0.05 });
    assert.deepEqual(screenRow(faster), { suspect: false, bound: 0.006, blind: false });
    // The same width around +1 %: a slowdown beyond 5 % is possible, so the screen is blind to it.
    const level = row({ benchmark: 'b', status: 'inconclusive', change: 0.01, ci: [-0.045, 0.068], ciLevel: 0.95, tolerance: 0.05 });
    const call = screenRow(level);
    assert.ok(!call.suspect && call.blind && Math.abs(call.bound! - 0.068) < 1e-12, JSON.stringify(call));
  });

  test('a real shift within the tolerance whose interval reaches beyond it is inconclusive once screened, not unchanged', () => {
    // An A/A row seen on CI: +4.9 % [+2.8 %, +6.9 %], p < 0.0001: the comparison calls a real shift within the tolerance
    // unchanged; the screen could not rule a slowdown beyond 5 % out, so the row is not shown to pass.
    const reaching = row({ benchmark: 'r', status: 'unchanged', change: 0.0488, ci: [0.0284, 0.069], ciLevel: 0.95, tolerance: 0.05 });
    const inside = row({ benchmark: 'i', status: 'unchanged', change: 0.01, ci: [-0.01, 0.03], ciLevel: 0.95, tolerance: 0.05 });
    const merged = mergeStages({
      screened: screenReport(reportOf([reaching, inside])),
      confirmed: null,
      unconfirmed: () => null,
      failSuspected: false,
      stages: STAGES,
    });
    const [r, i] = ['r', 'i'].map((b) => merged.rows.find((x) => x.benchmark === b)!);
    assert.equal(r!.status, 'inconclusive');
    assert.deepEqual(r!.stage, { by: 'screen', suspect: false, bound: 0.069, blind: { estimate: 0.0488, tolerance: 0.05 } });
    assert.equal(i!.status, 'unchanged');
    assert.equal(merged.counts.inconclusive, 1);
    assert.equal(merged.verdict, 'pass');
  });

  test('the report says the runner cannot screen, and a cleared row never reads as "no slowdown beyond +244 % seen"', async () => {
    const { stagesText, stageNote } = await import('../../src/report/stage-text.js');
    const text = stagesText({ ...STAGES, screen: { ...STAGES.screen, blind: { rows: 3, bound: 2.442 } } }).join(' ');
    assert.match(
      text,
      /This runner's runs drift more than the tolerance: the history cannot clear a slowdown of that size in 3 rows \(up to \+244\.2 % could hide there\)/,
    );
    const note = stageNote({ by: 'screen', suspect: false, bound: 2.442, blind: { estimate: 0.01, tolerance: 0.05 } });
    assert.equal(
      note,
      "screened: measured +1.0 %, within the tolerance of 5 %, but this runner's drift could hide a slowdown up to +244.2 %: not shown to pass",
    );
  });
});
