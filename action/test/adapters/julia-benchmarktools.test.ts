import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { juliaBenchmarkToolsAdapter as adapter } from '../../src/adapters/julia-benchmarktools.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import { adapterContract, byId, FIXTURES, inputErrorOf, parseFile, parseText } from './adapter-contract.js';

// Julia does not run here: one real external file (TrialEstimates) and one
// hand-written after BenchmarkTools' serialization.jl (raw Trials); see the README.
const ESTIMATES = join(FIXTURES, 'julia-benchmarktools/gab-julia_output.json');
const TRIALS = join(FIXTURES, 'julia-benchmarktools/handwritten-trials-nested.json');
const trialsText = readFileSync(TRIALS, 'utf8');

type Saved = [string, { data: Record<string, Saved> } & Record<string, unknown>];
function rawTrial(...keys: string[]): Record<string, unknown> {
  let node = (JSON.parse(trialsText) as [unknown, Saved[]])[1][0]!;
  for (const key of keys) node = node[1].data[key]!;
  return node[1];
}

describe('Julia BenchmarkTools adapter', () => {
  test('auto-detection picks julia-benchmarktools for both files', () => {
    for (const p of [ESTIMATES, TRIALS]) assert.equal(chooseAdapter(fileInput(p, readFileSync(p, 'utf8'))).name, 'julia-benchmarktools');
  });

  test('TrialEstimates: nested group keys form the id, time in seconds, memory and allocs', () => {
    const results = parseFile(adapter, ESTIMATES);
    assert.deepEqual(results.map((r) => r.id).sort(), ['fib/10', 'fib/20']);
    const fib20 = byId(results, 'fib/20');
    assert.equal(fib20.status, 'ok');
    assert.deepEqual(fib20.metrics.time, { unit: 's', direction: 'lower', sourceUnit: 'ns', value: 31028e-9 });
    assert.ok(Math.abs(byId(results, 'fib/10').metrics.time!.value! - 246.03846153846155e-9) < 1e-20);
    assert.deepEqual(fib20.metrics.alloc_bytes, { unit: 'B', direction: 'lower', exact: true, sourceUnit: 'bytes', value: 0 });
    assert.deepEqual(fib20.metrics.allocs, { unit: 'count', direction: 'lower', exact: true, sourceUnit: 'allocs', value: 0 });
  });

  test('Trials: times are the samples, ns → s, in the order measured', () => {
    const results = parseFile(adapter, TRIALS);
    assert.deepEqual(results.map((r) => r.id).sort(), ['parse/large', 'parse/small', 'trig/("sin", 0.0)']);
    for (const keys of [
      ['parse', 'small'],
      ['parse', 'large'],
      ['trig', '("sin", 0.0)'],
    ]) {
      const raw = rawTrial(...keys) as { times: number[]; memory: number; allocs: number };
      const m = byId(results, keys.join('/')).metrics;
      assert.equal(m.time!.samples!.length, raw.times.length, keys.join('/'));
      m.time!.samples!.forEach((s, i) => assert.ok(Math.abs(s - raw.times[i]! * 1e-9) < 1e-18, `${keys.join('/')}[${i}]`));
      assert.equal(m.alloc_bytes!.value, raw.memory);
      assert.equal(m.allocs!.value, raw.allocs);
    }
    const large = byId(results, 'parse/large').metrics;
    assert.equal(large.alloc_bytes!.value, 1048640);
    assert.ok(large.time!.samples![1]! > large.time!.samples![0]! && large.time!.samples![1]! > large.time!.samples![2]!, 'not sorted');
    assert.equal(Object.keys(large).sort().join(), 'alloc_bytes,allocs,time', 'gctimes are not read');
  });

  test('a Trial with no times never ran: a failed benchmark, not a missing one', () => {
    const empty = trialsText.replace('"times":[812345.0,901234.0,798765.0]', '"times":[]');
    assert.notEqual(empty, trialsText);
    const large = byId(parseText(adapter, empty, 'empty.json'), 'parse/large');
    assert.equal(large.status, 'failed');
    assert.match(large.error!.message, /no samples/);
    assert.deepEqual(large.metrics, {});
  });

  test('"BenchmarkTools."-prefixed type names are read, as load() reads them', () => {
    const prefixed = trialsText.replaceAll('["Trial",', '["BenchmarkTools.Trial",');
    assert.equal(parseText(adapter, prefixed, 'prefixed.json').length, 3);
  });

  test('ratios, judgements and parameter files are errors naming their key', () => {
    const ratio = readFileSync(ESTIMATES, 'utf8').replace('"TrialEstimate"', '"TrialRatio"');
    const e = inputErrorOf(() => parseText(adapter, ratio, 'ratio.json'));
    assert.match(e.message, /"fib\/20" is a TrialRatio/);
    assert.equal(e.key, '[1][0][1].data.fib[1].data.20');
    const params = '[{"Julia":"1.10.4","BenchmarkTools":"1.5.0"},[["BenchmarkGroup",{"data":{"a":["Parameters",{"evals":1}]},"tags":[]}]]]';
    assert.match(inputErrorOf(() => parseText(adapter, params, 'params.json')).message, /tuning Parameters/);
  });

  test('a negative time names its key', () => {
    const e = inputErrorOf(() => parseText(adapter, trialsText.replace('"times":[1523.0', '"times":[-1523.0'), 'neg.json'));
    assert.equal(e.key, '[1][0][1].data.parse[1].data.small[1].times[0]');
  });

  adapterContract(adapter, 'julia-benchmarktools', [
    { name: 'truncated', text: readFileSync(ESTIMATES, 'utf8').slice(0, 1500), line: true },
    { name: 'corrupt', text: trialsText.replace('"allocs":3,', '"allocs":3,,'), line: true },
    { name: 'no saved values', text: '[{"Julia":"1.10.4","BenchmarkTools":"1.5.0"},[]]', line: true },
    { name: 'groups without trials', text: '[{"Julia":"1.10.4","BenchmarkTools":"1.5.0"},[["BenchmarkGroup",{"data":{},"tags":[]}]]]', line: true },
  ]);
});
