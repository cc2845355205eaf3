/**
 * What a differential profile costs (`npm run bench:profile-cost`): the wall
 * time of the profile step for one confirmed regression (both sides recorded,
 * folded, the flame graph drawn) and the size of the files it adds to the
 * artifact, for each profiler, on two examples:
 *
 * - examples/c-profile: `./words 1000000`, the base as committed and the head
 *   with slower-head.patch (hash_word ten times over, the same hash);
 * - examples/rust-criterion: its profile-command (`cargo bench … --profile-time
 *   2 --exact sum/split/100`), the same checkout on both sides: the cost does
 *   not depend on what changed.
 *
 * It calls the pipeline's profile step itself (pipeline/profile.ts) with a
 * report holding one confirmed regression, as the second stage hands it over.
 * Runs one thing at a time; take the figures with nothing else running.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPerfGateConfig, type PerfGateConfig } from '../action/src/config/perf-gate-config.js';
import type { GateReport } from '../action/src/gate/index.js';
import { defaultDeps } from '../action/src/pipeline/run-deps.js';
import { profileConfirmedRegressions } from '../action/src/pipeline/profile.js';

const ROOT = new URL('../', import.meta.url).pathname;

/** A report whose one row is a regression the second stage confirmed. */
function confirmedRow(benchmark: string): GateReport {
  return {
    rows: [{ benchmark, metric: 'time', status: 'regressed', flags: ['paired', 'confirmed'], stage: { by: 'interleaved', rounds: 12 } }],
  } as unknown as GateReport;
}

function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? bytesUnder(path) : statSync(path).size;
  }
  return total;
}

interface Case {
  example: string;
  benchmark: string;
  config: PerfGateConfig;
  checkouts: { base: string; head: string };
}

async function measure(c: Case, tool: 'perf' | 'callgrind'): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'pg-profile-cost-'));
  try {
    const suites = c.config.suites.map((s) => ({ ...s, profile: { tool, command: s.profile?.command ?? null } }));
    const config = { ...c.config, suites, profileTimeCap: 600 };
    const t0 = performance.now();
    const report = await profileConfirmedRegressions(
      { report: confirmedRow(c.benchmark), config, suiteOf: () => suites[0], checkouts: c.checkouts, outDir },
      { env: process.env, write: () => undefined, now: () => new Date(), deps: defaultDeps(), cleanups: [] },
    );
    const wall = (performance.now() - t0) / 1000;
    const section = report.profiles!;
    const profile = section.profiles[0];
    if (!profile) return `| ${c.example} | ${tool} | failed: ${section.warnings.join('; ')} | | | |`;
    const kept = ['diff.svg', 'base.folded', 'head.folded'].map((f) => statSync(join(outDir, 'profile', readdirSync(join(outDir, 'profile'))[0]!, f)).size);
    const artifact = kept.reduce((a, b) => a + b, 0);
    const top = profile.top[0] ? `${profile.top[0].function} ${(profile.top[0].growth * 100).toFixed(1)} %` : 'none above the threshold (A/A)';
    return `| ${c.example} | ${tool} | ${wall.toFixed(1)} s | ${(artifact / 1024).toFixed(0)} KiB (svg ${(kept[0]! / 1024).toFixed(0)}) | ${(bytesUnder(outDir) / 1024 / 1024).toFixed(1)} MiB | ${top} |`;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'pg-profile-cost-src-'));
  try {
    // The C example twice: as committed, and with the planted slowdown; each built as its suite builds it.
    for (const side of ['base', 'head']) cpSync(join(ROOT, 'examples/c-profile'), join(work, side, 'examples/c-profile'), { recursive: true });
    execFileSync('sh', ['-c', 'patch -s -p1 < slower-head.patch'], { cwd: join(work, 'head/examples/c-profile') });
    const cConfig = loadPerfGateConfig(join(work, 'head/examples/c-profile/perf-gate.yml'), ROOT);
    for (const side of ['base', 'head']) execFileSync('sh', ['-c', cConfig.suites[0]!.build!], { cwd: join(work, side, 'examples/c-profile') });
    const rust = join(ROOT, 'examples/rust-criterion');
    execFileSync('cargo', ['bench', '--quiet', '--bench', 'parse', '--no-run'], { cwd: rust, stdio: 'ignore' });
    const cases: Case[] = [
      { example: 'c-profile `words/count`', benchmark: 'words/count', config: cConfig, checkouts: { base: join(work, 'base'), head: join(work, 'head') } },
      {
        example: 'rust-criterion `parse/sum/split/100`',
        benchmark: 'parse/sum/split/100',
        config: loadPerfGateConfig(join(rust, 'perf-gate.yml'), ROOT),
        checkouts: { base: ROOT, head: ROOT },
      },
    ];
    console.log(
      '| example | profiler | profile step (both sides) | added to the artifact | scratch (profiler output, deleted with the run folder) | top function |',
    );
    console.log('| :-- | :-- | --: | --: | --: | :-- |');
    for (const c of cases) for (const tool of ['perf', 'callgrind'] as const) console.log(await measure(c, tool));
    console.log(
      `\nmachine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}; ${execFileSync('valgrind', ['--version'], { encoding: 'utf8' }).trim()}, ${execFileSync('perf', ['--version'], { encoding: 'utf8' }).trim()}`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
