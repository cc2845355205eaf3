import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, symlinkSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addCallgrindStacks, foldedText, parseFolded } from '../../src/runner/profile/callgrind-stacks.js';
import { writeDiffFlameGraph } from '../../src/runner/profile/flamegraph.js';
import { functionGrowth, GROWTH_THRESHOLD, inclusiveCosts, prunedStacks, totalCost } from '../../src/gate/function-growth.js';
import { chooseProfiler, perfCannotSample, recordSide, valgrindRuns, type Profiler } from '../../src/runner/profile/record.js';
import { processSpawner } from '../../src/runner/spawn.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

requireTool('cc', 'valgrind', 'perf', 'inferno-flamegraph', 'patch');

/** The profiling example, and the same program with its planted slowdown (slower-head.patch: hash_word's loop ten times, the same hash). */
const EXAMPLE = new URL('../../../examples/c-profile/', import.meta.url).pathname;
const SOURCE = readFileSync(join(EXAMPLE, 'words.c'), 'utf8');
const SLOW = execFileSync('patch', ['-s', '-o', '-', join(EXAMPLE, 'words.c'), join(EXAMPLE, 'slower-head.patch')], { encoding: 'utf8' });

// Not /tmp/perf-…: perf takes any file under that prefix for a JIT's symbol map and names no function in it.
const dir = tempDir('pg-profile-');
const spawner = processSpawner();
const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));

/** Builds `source` as `<side>/words`: one program name on both sides, as a base and a head checkout have (perf roots each stack at it). */
function build(side: string, source: string): string {
  mkdirSync(join(dir, side), { recursive: true });
  writeFileSync(join(dir, side, 'words.c'), source);
  execFileSync('cc', ['-O2', '-g', '-fno-omit-frame-pointer', '-o', join(dir, side, 'words'), join(dir, side, 'words.c')]);
  return join(dir, side, 'words');
}

let run = 0;
async function record(tool: Profiler, program: string, n: number) {
  const recorded = await recordSide({ tool, command: `${program} ${n}`, cwd: dir, env, dir: join(dir, `side-${run++}`), timeoutSeconds: 120, spawner });
  assert.ok('stacks' in recorded, JSON.stringify(recorded));
  return recorded;
}

describe('a differential profile, recorded for real', () => {
  let base = '';
  let slow = '';
  before(() => {
    assert.notEqual(SLOW, SOURCE, 'the slowdown is planted');
    base = build('base', SOURCE);
    slow = build('head', SLOW);
  });

  test("callgrind: the folded self costs add up to callgrind's own totals, per process", () => {
    const out = join(dir, 'raw');
    mkdirSync(out);
    execFileSync('valgrind', [
      '-q',
      '--tool=callgrind',
      '--separate-callers=40',
      '--trace-children=yes',
      `--callgrind-out-file=${join(out, 'callgrind.out.%p')}`,
      'sh',
      '-c',
      `${base} 100000`,
    ]);
    const files = readdirSync(out).map((f) => readFileSync(join(out, f), 'utf8'));
    assert.equal(files.length, 2, 'sh and the program');
    const stacks = new Map<string, number>();
    for (const text of files) addCallgrindStacks(text, 'callgrind.out', stacks);
    const totals = files.map((text) => Number(/^totals:\s+(\d+)/m.exec(text)![1]));
    assert.equal(totalCost(stacks), totals[0]! + totals[1]!);
    const inclusive = inclusiveCosts(stacks);
    for (const fn of ['main', 'next_word', 'table_add', 'hash_word', 'top_word']) assert.ok((inclusive.get(fn) ?? 0) > 0, fn);
    assert.ok(inclusive.get('table_add')! > inclusive.get('hash_word')!, 'table_add calls hash_word: its inclusive cost holds it');
    assert.deepEqual(parseFolded(foldedText(stacks)), stacks);
    // The files keep the stacks a flame graph can draw: at least 1/10,000 of the total.
    const kept = prunedStacks(stacks);
    assert.ok(kept.size < stacks.size && kept.size > 0, `${kept.size} of ${stacks.size}`);
    for (const cost of kept.values()) assert.ok(cost >= totalCost(stacks) / 1e4);
    assert.ok(totalCost(kept) > 0.99 * totalCost(stacks), 'what is left out is a sliver of the total');
  });

  test("a side keeps its log, not the profiler's own files (they run to a hundred megabytes)", async () => {
    await record('callgrind', base, 50_000);
    assert.deepEqual(readdirSync(join(dir, `side-${run - 1}`)), ['profile.log']);
  });

  test('callgrind: a planted slowdown in one function puts that function on the top row; A/A shows none', async () => {
    const before = await record('callgrind', base, 200_000);
    const after = await record('callgrind', slow, 200_000);
    const again = await record('callgrind', base, 200_000);
    if (!('stacks' in before && 'stacks' in after && 'stacks' in again)) return;
    const grown = functionGrowth(before.stacks, after.stacks, { threshold: GROWTH_THRESHOLD.callgrind });
    // Its callers carry the same growth and are left out as the way to it; its share of the work grows from about a fifth to most of it.
    assert.deepEqual(
      grown.map((g) => g.function),
      ['hash_word'],
      JSON.stringify(grown),
    );
    assert.ok(grown[0]!.shareBefore < 0.3 && grown[0]!.shareAfter > 0.6, JSON.stringify(grown[0]));
    assert.ok(grown[0]!.after > 5 * grown[0]!.before, 'ten rounds of the same loop');
    assert.deepEqual(functionGrowth(before.stacks, again.stacks, { threshold: 0.0001 }), [], 'A/A: no share moves by 0.01 point');
  });

  test('perf: samples this machine (the cpu-clock event where a VM has no PMU) and finds the same function', async () => {
    assert.equal(perfCannotSample(process.env), null, 'perf record samples here');
    const before = await record('perf', base, 3_000_000);
    const after = await record('perf', slow, 3_000_000);
    if (!('stacks' in before && 'stacks' in after)) return;
    const grown = functionGrowth(before.stacks, after.stacks, { threshold: GROWTH_THRESHOLD.perf });
    const shares = (s: typeof before.stacks) => JSON.stringify([...inclusiveCosts(s)].sort((x, y) => y[1] - x[1]).slice(0, 8));
    assert.equal(grown[0]?.function, 'hash_word', `${JSON.stringify(grown)}\n${shares(before.stacks)}\n${shares(after.stacks)}`);
  });

  test('the differential flame graph is one self-contained SVG that names the grown function', async () => {
    const before = await record('callgrind', base, 100_000);
    const after = await record('callgrind', slow, 100_000);
    if (!('stacks' in before && 'stacks' in after)) return;
    writeFileSync(join(dir, 'base.folded'), foldedText(before.stacks));
    writeFileSync(join(dir, 'head.folded'), foldedText(after.stacks));
    const request = {
      basePath: join(dir, 'base.folded'),
      headPath: join(dir, 'head.folded'),
      svgPath: join(dir, 'diff.svg'),
      title: 'words',
      countName: 'instructions',
      normalize: false,
    };
    assert.equal(writeDiffFlameGraph({ ...request, env: process.env }), null);
    const svg = readFileSync(join(dir, 'diff.svg'), 'utf8');
    assert.match(svg, /^<\?xml[\s\S]*<svg[\s\S]*<\/svg>\s*$/);
    assert.match(svg, /hash_word \([\d,]+ instructions, [\d.]+%; \+[\d.]+%\)/, 'the frame of hash_word says how much it grew');
    assert.doesNotMatch(svg, /\b(?:src|href)="https?:/, 'nothing is fetched when the SVG is opened');
    // Without inferno on the PATH: the reason and the fix, never a crash.
    const without = writeDiffFlameGraph({ ...request, svgPath: join(dir, 'none.svg'), env: { PATH: '/nonexistent' } });
    assert.match(without ?? '', /inferno-diff-folded does not run .*: cargo install --locked inferno/);
  });
});

describe('which profiler a suite gets', () => {
  test('perf refused or missing: auto takes callgrind; perf asked for says why and the fix', () => {
    const refused = { perf: () => 'perf record refused: Error: No permission', callgrind: () => true };
    assert.deepEqual(chooseProfiler('auto', refused), { tool: 'callgrind', warning: null });
    const perf = chooseProfiler('perf', refused);
    assert.equal(perf.tool, 'callgrind');
    assert.match(
      perf.warning ?? '',
      /^perf record refused: Error: No permission; profiled with callgrind instead\. Fix: .*perf_event_paranoid=1.*profile: callgrind/,
    );
    assert.deepEqual(chooseProfiler('callgrind', { perf: () => null, callgrind: () => false }), {
      tool: null,
      warning: 'valgrind does not run here: install valgrind (apt-get install valgrind, dnf install valgrind)',
    });
    assert.deepEqual(chooseProfiler('auto', { perf: () => null, callgrind: () => true }), { tool: 'perf', warning: null });
  });

  test('for real: with perf off the PATH, perf is "not installed" and callgrind still runs', () => {
    const bin = join(dir, 'bin-without-perf');
    mkdirSync(bin, { recursive: true });
    // Debian's valgrind is a wrapper script that runs valgrind.bin beside it.
    for (const tool of ['valgrind', 'sh']) {
      const path = execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
      symlinkSync(path, join(bin, tool));
      if (existsSync(`${path}.bin`)) symlinkSync(`${path}.bin`, join(bin, `${tool}.bin`));
    }
    const path = { PATH: bin };
    assert.equal(perfCannotSample(path), 'perf is not installed');
    assert.equal(valgrindRuns(path), true);
    const chosen = chooseProfiler('perf', { perf: () => perfCannotSample(path), callgrind: () => valgrindRuns(path) });
    assert.equal(chosen.tool, 'callgrind');
    assert.match(chosen.warning ?? '', /^perf is not installed; profiled with callgrind instead/);
  });
});
