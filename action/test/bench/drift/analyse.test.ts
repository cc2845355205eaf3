import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { analyseReplay, replayOfDetectData, replayOfHistory, type DriftVariant, type Replay, type Tally } from '../../../../bench/drift/analyse.js';
import type { DataFile } from '../../../../bench/detect/data-file.js';
import type { HistoryData } from '../../../../bench/drift/collect.js';

/**
 * The claims docs/detection.md makes about the learned drift, checked on the
 * committed real histories (the figures are re-derived, not stored).
 */
const detect = JSON.parse(readFileSync(new URL('../../../../bench/detect/data/detect-full.json', import.meta.url), 'utf8')) as DataFile;
const recorded = JSON.parse(readFileSync(new URL('../../../../bench/drift/data/history-full.json', import.meta.url), 'utf8')) as HistoryData;
const replays: Replay[] = [replayOfDetectData(detect, 'quiet', 10), replayOfDetectData(detect, 'busy', 10), replayOfHistory(recorded)];
const configured: DriftVariant = { label: 'configured 2 %', window: null };
const learned: DriftVariant = { label: 'learned, N = 20', window: 20 };
const results = replays.map((r) => ({ replay: r, results: analyseReplay(r, [configured, learned]) }));

const aa = (t: Map<number, Tally>): Tally => t.get(0)!;
const rate = (part: number, t: Tally): number => part / t.trials;

describe('learned drift on the committed real histories', () => {
  test('configured 2 %: no A/A run is ever "unchanged"; learned on the calm machine: a fifth or more are', () => {
    for (const {
      replay,
      results: [c],
    } of results) {
      for (const b of replay.benchmarks) assert.equal(aa(c!.tallies.get(b)!).unchanged, 0, `${replay.label} ${b}`);
    }
    const quiet = results[0]!.results[1]!.tallies.get('work-20ms')!;
    assert.ok(rate(aa(quiet).unchanged, aa(quiet)) >= 0.2, `quiet: ${aa(quiet).unchanged} of ${aa(quiet).trials}`);
  });

  test('learning never raises false alarms above the configured 2 %', () => {
    for (const {
      replay,
      results: [c, l],
    } of results) {
      for (const b of replay.benchmarks) {
        const fc = aa(c!.tallies.get(b)!).regressed;
        const fl = aa(l!.tallies.get(b)!).regressed;
        assert.ok(fl <= fc, `${replay.label} ${b}: ${fl} false alarms learned vs ${fc} configured`);
      }
    }
  });

  test('on the stalling VM the learned drift says the benchmarks cannot be gated at 5 %', () => {
    const l = results[2]!.results[1]!;
    for (const b of results[2]!.replay.benchmarks) assert.ok((l.medianDrift.get(b) ?? 0) > 0.05, `${b}: ${l.medianDrift.get(b)}`);
  });
});
