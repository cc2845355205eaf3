import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { asvAdapter as adapter } from '../../src/adapters/asv.js';
import { chooseAdapter, fileInput, readInputs } from '../../src/adapters/index.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { runTool } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { requirePython, requireTool } from '../support/tools.js';
import { adapterContract, byId, FIXTURES, inputErrorOf, parseFile, parseText } from './adapter-contract.js';

const RESULTS = join(FIXTURES, 'asv/results');
const FIXTURE = join(RESULTS, 'testbox/ea4485e8-existing-py.json');
const fixtureText = readFileSync(FIXTURE, 'utf8');

const CONF = JSON.stringify({
  version: 1,
  project: 'tiny',
  project_url: '',
  repo: '.',
  environment_type: 'existing',
  benchmark_dir: 'benchmarks',
  results_dir: 'results',
  html_dir: 'html',
});

/** The median, as asv reports it for a time benchmark's samples. */
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

type Row = [number[] | null, string[][], ...unknown[]];

describe('asv adapter on a real asv run --record-samples', () => {
  requirePython('asv');
  requireTool('git');
  const dir = tempDir('perf-gate-asv-');
  let out: string;
  let results: BenchmarkResult[];
  let raw: { result_columns: string[]; results: Record<string, Row> };
  const column = (name: string, bench: string): unknown => raw.results[bench]![raw.result_columns.indexOf(name)];

  before(() => {
    mkdirSync(join(dir, 'benchmarks'));
    writeFileSync(join(dir, 'benchmarks/__init__.py'), '');
    writeFileSync(join(dir, 'benchmarks/bench_sum.py'), readFileSync(new URL('../support/harness-src/asv_bench.py', import.meta.url), 'utf8'));
    writeFileSync(join(dir, 'asv.conf.json'), CONF);
    // asv keeps its machine description in ~/.asv-machine.json: a HOME of the test's own keeps the user's alone.
    const env = {
      ...process.env,
      HOME: dir,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.invalid',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.invalid',
    };
    runTool('git', ['init', '-q'], { cwd: dir, env });
    runTool('git', ['commit', '-q', '--allow-empty', '-m', 'init'], { cwd: dir, env });
    const commit = runTool('git', ['rev-parse', 'HEAD'], { cwd: dir, env }).stdout.trim();
    runTool('python3', ['-m', 'asv', 'machine', '--yes', '--machine', 'testbox'], { cwd: dir, env });
    // --python=same runs in this Python (no environment to build); asv exits 2 because time_fails fails.
    const run = runTool('python3', ['-m', 'asv', 'run', '--python=same', '--record-samples', '--machine', 'testbox', '--set-commit-hash', commit], {
      cwd: dir,
      env,
      timeoutMs: 240_000,
      allowFailure: true,
    });
    assert.ok(run.status === 0 || run.status === 2, `asv run exited ${run.status}: ${run.stderr}`);
    const machine = join(dir, 'results/testbox');
    const file = readdirSync(machine).find((f) => f !== 'machine.json');
    assert.ok(file, `no results file in ${machine}`);
    out = join(machine, file);
    raw = JSON.parse(
      readFileSync(out, 'utf8')
        .replace(/\bNaN\b/g, 'null')
        .replace(/-?Infinity/g, 'null'),
    ) as typeof raw;
    results = parseFile(adapter, out);
  });

  test('auto-detection picks asv', () => {
    assert.equal(chooseAdapter(fileInput(out, readFileSync(out, 'utf8'))).name, 'asv');
  });

  test('every benchmark and parameter combination is there, the skipped one left out', () => {
    assert.deepEqual(results.map((r) => `${r.id} ${r.status}`).sort(), [
      'bench_sum.TimeSkip.time_k(1) ok',
      'bench_sum.TimeSuite.time_range(10) ok',
      'bench_sum.TimeSuite.time_range(1000) ok',
      'bench_sum.mem_list ok',
      'bench_sum.peakmem_list ok',
      'bench_sum.time_fails failed',
      'bench_sum.time_sum_100 ok',
      'bench_sum.track_answer ok',
    ]);
    assert.match(readFileSync(out, 'utf8'), /\bNaN\b/, 'asv writes the skipped combination as NaN');
  });

  test("time samples are the recorded repeats in seconds, in run order; asv's result is their median", () => {
    const r = byId(results, 'bench_sum.time_sum_100').metrics.time!;
    const samples = (column('samples', 'bench_sum.time_sum_100') as number[][])[0]!;
    assert.equal(r.unit, 's');
    assert.equal(r.direction, 'lower');
    assert.equal(r.exact, undefined);
    assert.deepEqual(r.samples, samples);
    assert.equal(r.samples!.length, 5, 'repeat = 5');
    assert.equal(median(r.samples!), (column('result', 'bench_sum.time_sum_100') as number[])[0]);
    assert.ok(
      r.samples!.every((s) => s > 1e-9 && s < 1e-3),
      'sum(range(100)) takes between a nanosecond and a millisecond',
    );
  });

  test("parameters come from benchmarks.json param_names, in asv's order; more work takes longer", () => {
    const small = byId(results, 'bench_sum.TimeSuite.time_range(10)');
    const big = byId(results, 'bench_sum.TimeSuite.time_range(1000)');
    assert.deepEqual(small.params, { n: '10' });
    assert.deepEqual(big.params, { n: '1000' });
    const samples = column('samples', 'bench_sum.TimeSuite.time_range') as number[][];
    assert.deepEqual(small.metrics.time!.samples, samples[0]);
    assert.deepEqual(big.metrics.time!.samples, samples[1]);
    assert.ok(median(big.metrics.time!.samples!) > 10 * median(small.metrics.time!.samples!));
  });

  test('peakmem is max_rss and mem is memory, in bytes, lower is better', () => {
    const peak = byId(results, 'bench_sum.peakmem_list').metrics.max_rss!;
    assert.equal(peak.unit, 'B');
    assert.equal(peak.direction, 'lower');
    assert.equal(peak.value, (column('result', 'bench_sum.peakmem_list') as number[])[0]);
    assert.ok(peak.value! > 800_000, 'a list of 100,000 pointers is at least 800 kB');
    const mem = byId(results, 'bench_sum.mem_list').metrics.memory!;
    assert.equal(mem.unit, 'B');
    assert.equal(mem.direction, 'lower');
    assert.ok(mem.value! >= 8000 && mem.value! < 9000, `sizeof [0] * 1000 is ${mem.value}`);
  });

  test('a track benchmark keeps its unit and is marked direction unknown', () => {
    const v = byId(results, 'bench_sum.track_answer').metrics.value!;
    assert.equal(v.value, 42);
    assert.equal(v.unit, 'widgets');
    assert.equal(v.directionUnknown, true);
  });

  test('the failing benchmark is failed, with no metrics', () => {
    const r = byId(results, 'bench_sum.time_fails');
    assert.equal(column('result', 'bench_sum.time_fails'), null);
    assert.deepEqual(r.metrics, {});
    assert.match(r.error!.message, /failed/);
  });
});

describe('asv adapter on the committed capture', () => {
  test('the results folder reads cleanly: benchmarks.json is recognised and gives no benchmark', () => {
    const read = readInputs([RESULTS], { cwd: '/', created: '2026-11-25T00:00:00Z' });
    assert.deepEqual(read.skipped, []);
    assert.deepEqual(
      read.files.map((f) => [f.path.slice(RESULTS.length + 1), f.format, f.benchmarks]),
      [
        ['benchmarks.json', 'asv', 0],
        ['testbox/ea4485e8-existing-py.json', 'asv', 8],
      ],
    );
  });

  test("without samples the result (asv's median) is one value", () => {
    const doc = JSON.parse(fixtureText.replace(/\bNaN\b/g, '"NaN"')) as { result_columns: string[]; results: Record<string, unknown[]> };
    const s = doc.result_columns.indexOf('samples');
    for (const row of Object.values(doc.results)) if (row.length > s) row.length = s;
    const r = byId(parseText(adapter, JSON.stringify(doc).replace(/"NaN"/g, 'NaN'), FIXTURE), 'bench_sum.time_sum_100').metrics.time!;
    assert.equal(r.samples, undefined);
    assert.equal(r.value, 6.595997547265142e-7);
  });

  test('without benchmarks.json next to it, types come from the name and parameters are param1 …', () => {
    const results = parseText(adapter, fixtureText, '/elsewhere/result.json');
    assert.deepEqual(byId(results, 'bench_sum.TimeSuite.time_range(10)').params, { param1: '10' });
    assert.equal(byId(results, 'bench_sum.peakmem_list').metrics.max_rss!.value, 36712448);
    assert.equal(byId(results, 'bench_sum.track_answer').metrics.value!.unit, 'unit');
  });

  test('a result count that does not match the parameters names the line and key', () => {
    const doc = JSON.parse(fixtureText.replace(/\bNaN\b/g, '"NaN"')) as { results: Record<string, unknown[]> };
    doc.results['bench_sum.TimeSuite.time_range']![0] = [2.945998858194798e-7]; // two params, one result
    const broken = JSON.stringify(doc, null, 1).replace(/"NaN"/g, 'NaN');
    const error = inputErrorOf(() => parseText(adapter, broken, '/r/x.json'));
    assert.equal(error.key, 'results.bench_sum.TimeSuite.time_range[0]');
    assert.ok(error.line! > 1);
  });

  test('bare -Infinity / Infinity (asv run --quick confidence bounds) are read', () => {
    const doc = JSON.parse(fixtureText.replace(/\bNaN\b/g, '"NaN"')) as { results: Record<string, unknown[]> };
    doc.results['bench_sum.time_sum_100']!.splice(5, 2, ['-Infinity'], ['Infinity']);
    const text = JSON.stringify(doc).replace(/"(-?Infinity|NaN)"/g, '$1');
    assert.match(text, /\[-Infinity\], \[Infinity\]|\[-Infinity\],\[Infinity\]/);
    assert.equal(byId(parseText(adapter, text, FIXTURE), 'bench_sum.time_sum_100').metrics.time!.samples!.length, 5);
  });

  test('a version 1 file is refused with the reason', () => {
    const error = inputErrorOf(() => parseText(adapter, fixtureText.replace('"version": 2', '"version": 1'), '/r/v1.json'));
    assert.match(error.message, /version 1; perf-gate reads version 2/);
  });

  adapterContract(adapter, 'asv', [
    { name: 'truncated', text: fixtureText.slice(0, Math.floor(fixtureText.length * 0.7)), line: true },
    { name: 'corrupt', text: fixtureText.replace('[[8056]', '[[80.56.1]'), line: true },
    { name: 'not a number', text: fixtureText.replace('[[8056]', '[["8056"]'), line: true },
    { name: 'no results', text: fixtureText.replace(/"results": \{.*\}\s*,?/s, '"results": {}, "version": 2}'), line: true },
  ]);
});
