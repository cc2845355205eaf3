import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { parsePerfGateConfig } from '../../src/config/perf-gate-config.js';
import { parseOutputFile } from '../../src/pipeline/output-parser.js';
import { compareMetrics } from '../../src/gate/compare/index.js';
import { RESULT_SET_SCHEMA } from '../../src/model/index.js';
import { runAb } from '../../src/runner/ab.js';
import { mockSpawner } from '../support/mock-spawner.js';
import { logProgress } from '../../src/runner/progress.js';
import { tempDir } from '../support/temp.js';

/**
 * The drift docs/design.md records, simulated: the machine's level wanders from
 * round to round (a random walk, steps of ±4 %), runs scatter by ±1 % around
 * it. Through the real runner (mock processes), the same interleaved samples
 * are analysed paired and unpaired.
 */
async function trial(seed: number, slowdown: number, dir: string): Promise<{ paired: string; unpaired: string; pairedWidth: number; unpairedWidth: number }> {
  const rng = xoroshiro128plus(seed);
  const uniform = (): number => uniformFloat64(rng) * 2 - 1;
  let level = 1;
  let calls = 0;
  const spawner = mockSpawner((r) => {
    if (r.outputPath === null) return {};
    if (calls++ % 2 === 0) level *= 1 + 0.04 * uniform();
    const t = 0.02 * level * (1 + 0.01 * uniform()) * (r.env.PERF_GATE_SIDE === 'head' ? 1 + slowdown : 1);
    const benchmarks = [{ id: 'w', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: [t] } } }];
    return { output: JSON.stringify({ schema: RESULT_SET_SCHEMA, created: '2026-11-21T12:00:00Z', benchmarks }) };
  });
  const root = join(dir, `t${seed}-${slowdown}`);
  mkdirSync(join(root, 'base'), { recursive: true });
  mkdirSync(join(root, 'head'), { recursive: true });
  const suites = parsePerfGateConfig(
    `version: 1\nab: { rounds: 12, max-rounds: 12, confirm: false, seed: ${seed} }\nsuites:\n  - { name: s, run: "w > {output}" }\n`,
    'p.yml',
    join(root, 'head'),
  ).suites;
  const outcome = await runAb(
    suites,
    { base: join(root, 'base'), head: join(root, 'head') },
    {
      spawner,
      parse: parseOutputFile,
      outDir: join(root, 'out'),
      env: {},
      progress: logProgress({ githubActions: false, write: () => undefined, clock: () => 0 }),
      classify: () => new Map(),
      created: '2026-11-21T12:00:00Z',
    },
  );
  const baseline = outcome.base.benchmarks[0]!.metrics.time!;
  const current = outcome.head.benchmarks[0]!.metrics.time!;
  const tolerance = { regression: 0.02, noise: 0.01, alpha: 0.01, exact: false };
  const [p] = compareMetrics([{ baseline, current, paired: true, ...tolerance }]);
  const [u] = compareMetrics([{ baseline, current, paired: false, ...tolerance }]);
  return { paired: p!.status, unpaired: u!.status, pairedWidth: p!.ci![1] - p!.ci![0], unpairedWidth: u!.ci![1] - u!.ci![0] };
}

describe('pairing interleaved rounds under simulated block drift', () => {
  test("paired analysis of the runner's rounds: no more false alarms, tighter intervals, more detections than unpaired", async (t) => {
    const dir = tempDir('pg-pairing-');
    const trials = 20;
    const count = { aaPaired: 0, aaUnpaired: 0, abPaired: 0, abUnpaired: 0, narrower: 0 };
    for (let seed = 1; seed <= trials; seed++) {
      const aa = await trial(seed, 0, dir);
      if (aa.paired === 'regressed' || aa.paired === 'improved') count.aaPaired++;
      if (aa.unpaired === 'regressed' || aa.unpaired === 'improved') count.aaUnpaired++;
      const ab = await trial(1000 + seed, 0.05, dir);
      if (ab.paired === 'regressed') count.abPaired++;
      if (ab.unpaired === 'regressed') count.abUnpaired++;
      if (ab.pairedWidth < ab.unpairedWidth) count.narrower++;
    }
    t.diagnostic(JSON.stringify(count));
    assert.ok(
      count.aaPaired <= count.aaUnpaired && count.aaPaired <= 1,
      `A/A false alarms: paired ${count.aaPaired}, unpaired ${count.aaUnpaired} of ${trials}`,
    );
    assert.ok(count.abPaired >= 18, `5 % slowdown detected paired in ${count.abPaired} of ${trials}`);
    assert.ok(count.abPaired > count.abUnpaired, `detections: paired ${count.abPaired}, unpaired ${count.abUnpaired}`);
    assert.ok(count.narrower >= 18, `paired interval narrower in ${count.narrower} of ${trials}`);
  });
});
