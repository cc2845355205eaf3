import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkProbe, runNoiseProbe, spin, type ProbeResult } from '../../../src/runner/preflight/noise-probe.js';

test('a steady clock gives CV 0 and exactly the requested repetitions', () => {
  let t = 0;
  const result = runNoiseProbe({ durationMs: 1000, repetitions: 12 }, () => (t += 10));
  assert.equal(result.n, 12);
  assert.equal(result.cv, 0);
  assert.equal(result.medianMs, 10);
});

test('the time budget stops the probe before the repetitions are done', () => {
  let t = 0;
  // Every pass "takes" 400 ms (600 with its budget check): calibration and warm-up spend the
  // 1 s budget (hard stop at 1.5 s), so the probe makes the three passes a spread needs, no more.
  const result = runNoiseProbe({ durationMs: 1000, repetitions: 50 }, () => (t += 200));
  assert.equal(result.n, 3);
  // At most the hard stop, three passes and a last check past it.
  assert.ok(result.elapsedMs <= 1000 * 1.5 + 600 * 3 + 200, `elapsed ${result.elapsedMs}`);
});

test('alternating pass times give the CV of the two values', () => {
  let calls = 0;
  let t = 0;
  // Each call advances the clock by 9 or 11 ms in turn. A timed pass reads the clock
  // three times (budget check, start, end), an odd number, so the pass times alternate too.
  const clock = (): number => (t += calls++ % 2 === 0 ? 9 : 11);
  const result = runNoiseProbe({ durationMs: 2000, repetitions: 20 }, clock);
  assert.equal(result.n, 20);
  // Ten 9s and ten 11s: mean 10, sample sd sqrt(20/19).
  assert.ok(Math.abs(result.cv - Math.sqrt(20 / 19) / 10) < 1e-9, `cv ${result.cv}`);
});

test('the real probe on this machine gives a finite CV within its time bound', () => {
  const result = runNoiseProbe({ durationMs: 300, repetitions: 6 });
  assert.ok(result.n >= 3);
  assert.ok(Number.isFinite(result.cv) && result.cv >= 0);
  assert.ok(result.elapsedMs < 1500, `took ${result.elapsedMs} ms`);
});

test('a CV above the limit is a warning; below it ok; too few passes unknown', () => {
  const base: ProbeResult = { n: 20, iterations: 1, cv: 0.02, medianMs: 10, minMs: 9, maxMs: 11, elapsedMs: 300 };
  assert.equal(checkProbe(base, { maxProbeCv: 0.05 }).status, 'ok');
  const noisy = checkProbe({ ...base, cv: 0.12 }, { maxProbeCv: 0.05 });
  assert.equal(noisy.status, 'warn');
  assert.match(noisy.message, /CV 12\.0 %/);
  assert.ok(noisy.fix);
  assert.equal(checkProbe({ ...base, n: 2 }, { maxProbeCv: 0.05 }).status, 'unknown');
});

test('the loop is deterministic', () => {
  assert.equal(spin(1000), spin(1000));
  assert.notEqual(spin(1000), spin(1001));
});
