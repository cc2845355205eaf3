import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jmhAdapter } from '../../src/adapters/jmh.js';
import { jmhCsvAdapter } from '../../src/adapters/jmh-csv.js';
import { jmhTextAdapter } from '../../src/adapters/jmh-text.js';
import { stddevFromError } from '../../src/adapters/jmh-table.js';
import { chooseAdapter, fileInput, parseInput } from '../../src/adapters/index.js';
import { adapterContract, byId, FIXTURES, parseFile } from './adapter-contract.js';

const at = (folder: string, name: string): string => join(FIXTURES, folder, name);
const csvText = readFileSync(at('jmh-csv', 'jmh-1.37-all-modes-prof-gc.csv'), 'utf8');
const logText = readFileSync(at('jmh-text', 'jmh-1.37-console-log.txt'), 'utf8');

function sd(xs: number[]): number {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1));
}

describe("JMH's 99.9 % error gives back the standard deviation", () => {
  test("on every JMH JSON fixture with a scoreError: sd from the error equals the sd of rawData (JMH's own computation as the reference)", () => {
    let checked = 0;
    for (const name of ['jmh-1.37-same-run-as-console-log.json', 'jmh-1.36-thrpt-avgt-dot-prefix.json', 'jmh-1.29-thrpt-params-external.json']) {
      const entries = JSON.parse(readFileSync(at('jmh', name), 'utf8')) as { primaryMetric: { scoreError: number | string; rawData?: number[][] } }[];
      for (const e of entries) {
        const raw = e.primaryMetric.rawData?.flat() ?? [];
        if (typeof e.primaryMetric.scoreError !== 'number' || raw.length < 2) continue;
        const recovered = stddevFromError(e.primaryMetric.scoreError, raw.length)!;
        assert.ok(Math.abs(recovered - sd(raw)) / sd(raw) < 1e-9, `${name}: ${recovered} vs ${sd(raw)}`);
        checked++;
      }
    }
    assert.ok(checked >= 5, `only ${checked} entries checked`);
    assert.equal(stddevFromError(Number.NaN, 5), null);
    assert.equal(stddevFromError(1, 1), null);
  });
});

describe('jmh-text: the console summary of one run, beside the JSON that run wrote', () => {
  const text = parseFile(jmhTextAdapter, at('jmh-text', 'jmh-1.37-console-log.txt'));
  const json = parseFile(jmhAdapter, at('jmh', 'jmh-1.37-same-run-as-console-log.json'));

  test('auto-detection picks jmh-text for a whole console log and for a pasted table', () => {
    assert.equal(chooseAdapter(fileInput('log.txt', logText)).name, 'jmh-text');
    assert.equal(chooseAdapter(fileInput('table.txt', readFileSync(at('jmh-text', 'jmh-1.36-summary-table.txt'), 'utf8'))).name, 'jmh-text');
  });

  test('the same benchmarks and metrics as the JSON, the shared package prefix left out as JMH prints it', () => {
    assert.deepEqual(
      text.map((r) => `example.jmh.${r.id}`),
      json.map((r) => r.id),
    );
    for (const r of text) assert.deepEqual(Object.keys(r.metrics).sort(), Object.keys(byId(json, `example.jmh.${r.id}`).metrics).sort(), r.id);
  });

  test('each score, count and spread is the JSON one, to the three decimals JMH prints', () => {
    for (const id of ['JoinBench.builder[size=10]', 'JoinBench.join[size=100]', 'ParseBench.parseSingleShot']) {
      const t = byId(text, id).metrics;
      const j = byId(json, `example.jmh.${id}`).metrics;
      const name = 'throughput' in t ? 'throughput' : 'time';
      const samples = j[name]!.samples!;
      const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
      assert.equal(t[name]!.summary!.n, samples.length, id);
      assert.equal(t[name]!.unit, j[name]!.unit);
      assert.equal(t[name]!.direction, j[name]!.direction);
      assert.ok(Math.abs(t[name]!.summary!.mean - mean) / mean < 2e-4, `${id} mean ${t[name]!.summary!.mean} vs ${mean}`);
      assert.ok(Math.abs(t[name]!.summary!.stddev! - sd(samples)) / sd(samples) < 5e-3, `${id} sd ${t[name]!.summary!.stddev} vs ${sd(samples)}`);
    }
  });

  test('JMH 1.36: the · prefix and the method-named percentiles read as in 1.37; "≈ 0" is zero', () => {
    const old = parseFile(jmhTextAdapter, at('jmh-text', 'jmh-1.36-summary-table.txt'));
    const sample = byId(old, 'ParseBench.parseSample').metrics;
    assert.ok(sample.latency_p50 && sample['gc.alloc.rate.norm']);
    assert.equal(byId(old, 'ParseBench.parseSingleShot').metrics['gc.count']!.summary!.mean, 0);
  });

  adapterContract(jmhTextAdapter, 'jmh-text', [
    { name: 'header only', text: logText.slice(0, logText.indexOf('JoinBench.builder    ', logText.lastIndexOf('Benchmark  '))), line: true },
    { name: 'corrupt', text: logText.replace(/(JoinBench.join +10 +avgt +5 +)\S+/, '$1fast'), line: true },
  ]);
});

describe('jmh-csv: -rf csv', () => {
  const csv = parseFile(jmhCsvAdapter, at('jmh-csv', 'jmh-1.37-all-modes-prof-gc.csv'));

  test('ids, units and directions are those of the JSON format', () => {
    const builder = byId(csv, 'example.jmh.JoinBench.builder[size=10]');
    assert.equal(builder.metrics.throughput!.unit, '1/s');
    assert.equal(builder.metrics.throughput!.direction, 'higher');
    // 3566.998644 ops/ms ± 1454.515824 (99.9 %, 5 samples).
    assert.equal(builder.metrics.throughput!.summary!.mean, 3566998.644);
    assert.ok(Math.abs(builder.metrics.throughput!.summary!.stddev! - stddevFromError(1454.515824, 5)! * 1000) < 1e-6);
    assert.equal(builder.metrics.throughput!.summary!.n, 5);
    assert.equal(builder.metrics['gc.alloc.rate.norm']!.unit, 'B');
    assert.equal(byId(csv, 'example.jmh.JoinBench.join[size=100]').metrics.time!.direction, 'lower');
    assert.equal(byId(csv, 'example.jmh.ParseBench.parseSample').metrics.time!.summary!.n, 13040);
    assert.deepEqual(byId(csv, 'example.jmh.JoinBench.join[size=10]').params, { size: '10', mode: 'avgt', threads: '1' });
  });

  test('JMH 1.36 CSV: the same ids and metric names as 1.37', () => {
    const old = parseFile(jmhCsvAdapter, at('jmh-csv', 'jmh-1.36-dot-prefix.csv'));
    assert.deepEqual(
      old.map((r) => r.id),
      csv.map((r) => r.id),
    );
    assert.ok(byId(old, 'example.jmh.ParseBench.parseSample').metrics.latency_p50);
  });

  adapterContract(jmhCsvAdapter, 'jmh-csv', [
    { name: 'truncated', text: csvText.slice(0, csvText.indexOf('\n', 300) - 10), line: true },
    { name: 'corrupt', text: csvText.replace('3566.998644', 'fast'), line: true },
    {
      name: 'secondary without its benchmark',
      text: csvText
        .split('\n')
        .filter((l, i) => i !== 1)
        .join('\n'),
      line: true,
    },
  ]);
});

test('hardening 3.13: a CSV row whose score is NaN is a failed row (primary) or an unavailable metric (secondary), never missing', () => {
  const lines = csvText.split('\n');
  lines[1] = lines[1]!.replace('3566.998644', 'NaN');
  lines[7] = lines[7]!.replace(/,"thrpt",1,5,[0-9.]+,/, ',"thrpt",1,5,NaN,');
  const rows = parseInput(fileInput('nan.csv', lines.join('\n')), 'jmh-csv');
  const all = parseInput(fileInput('all.csv', csvText), 'jmh-csv');
  assert.equal(rows.length, all.length, 'every benchmark keeps its row');
  const failed = rows.filter((r) => r.status === 'failed');
  assert.equal(failed.length, 1);
  assert.match(failed[0]!.error!.message, /JMH wrote no score \(NaN\) for example\.jmh\.JoinBench\.builder \(line 2\)/);
  const secondary = lines[7]!.split(',')[0]!.replace(/"/g, '').split(':')[1]!;
  assert.ok(
    rows.some((r) => r.unavailable && Object.values(r.unavailable).includes('JMH wrote NaN for it')),
    `${secondary} unavailable`,
  );
});
