import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { mitataAdapter as adapter } from '../../src/adapters/mitata.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { runTool } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { adapterContract, byId, FIXTURES, parseText } from './adapter-contract.js';

const MITATA = pathToFileURL(new URL('../../../node_modules/mitata/src/main.mjs', import.meta.url).pathname).href;
const fixtureText = readFileSync(join(FIXTURES, 'mitata/run-json-no-samples.json'), 'utf8');

// Slow-ish functions keep mitata's sample count (and the JSON) small.
const SCRIPT = `import { bench, run } from ${JSON.stringify(MITATA)};
const sum = (n) => { let s = 0; for (let i = 0; i < n; i++) s += i; return s; };
bench('sum 1e5', () => sum(1e5));
bench('sum 1e6', () => sum(1e6));
bench('throws', () => { throw new Error('boom'); });
await run({ format: { json: { samples: true, debug: false } } });
`;

describe('mitata adapter on a real mitata run', () => {
  const dir = tempDir();
  const out = join(dir, 'mitata.json');
  let results: BenchmarkResult[];
  let text: string;

  before(() => {
    writeFileSync(join(dir, 'bench.mjs'), SCRIPT);
    text = runTool(process.execPath, [join(dir, 'bench.mjs')], { timeoutMs: 90_000 }).stdout;
    writeFileSync(out, text);
    results = parseText(adapter, text, out);
  });

  test('auto-detection picks mitata', () => {
    assert.equal(chooseAdapter(fileInput(out, text)).name, 'mitata');
  });

  test('samples in ns per iteration become seconds; ten times the work takes about ten times longer', () => {
    const raw = JSON.parse(text) as { benchmarks: { runs: { stats: { samples: number[]; avg: number } }[] }[] };
    const small = byId(results, 'sum 1e5').metrics.time!;
    const big = byId(results, 'sum 1e6').metrics.time!;
    assert.equal(small.unit, 's');
    assert.equal(small.sourceUnit, 'ns');
    assert.equal(small.direction, 'lower');
    assert.equal(small.samples!.length, raw.benchmarks[0]!.runs[0]!.stats.samples.length);
    assert.ok(Math.abs(small.samples![0]! - raw.benchmarks[0]!.runs[0]!.stats.samples[0]! * 1e-9) < 1e-15);
    assert.ok(Math.abs(small.summary!.mean - raw.benchmarks[0]!.runs[0]!.stats.avg * 1e-9) < 1e-15);
    const ratio = big.summary!.median! / small.summary!.median!;
    assert.ok(ratio > 4 && ratio < 25, `sum(1e6)/sum(1e5) time ratio ${ratio}`);
    assert.ok(small.summary!.median! > 1e-6 && small.summary!.median! < 0.1);
  });

  test('a run that threw is failed with its message', () => {
    const r = byId(results, 'throws');
    assert.equal(r.status, 'failed');
    assert.equal(r.error!.message, 'boom');
  });
});

describe('mitata adapter on the committed capture', () => {
  test('without samples the average is a single value in seconds', () => {
    const r = byId(parseText(adapter, fixtureText, 'm.json'), 'RegExp#test').metrics.time!;
    assert.ok(Math.abs(r.value! - 14.93379085337781e-9) < 1e-18);
    assert.equal(r.samples, undefined);
  });

  test('args become params and part of the id', () => {
    const doc = JSON.parse(fixtureText) as { benchmarks: { runs: { args: Record<string, unknown> }[] }[] };
    doc.benchmarks[0]!.runs[0]!.args = { size: 1000 };
    const [r] = parseText(adapter, JSON.stringify(doc), 'm.json');
    assert.equal(r!.id, 'RegExp#test[size=1000]');
    assert.deepEqual(r!.params, { size: '1000' });
  });

  adapterContract(adapter, 'mitata', [
    { name: 'truncated', text: fixtureText.slice(0, 900), line: true },
    { name: 'corrupt', text: fixtureText.replace('"avg":14.93379085337781', '"avg":"fast"') },
    { name: 'no runs', text: '{"layout": [], "benchmarks": [], "context": {}}' },
  ]);
});
