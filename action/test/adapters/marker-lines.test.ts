import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { markerLinesAdapter, markerLinesFromOptions, type MarkerLinesSpec } from '../../src/adapters/marker-lines.js';
import { parseYaml } from '../../src/config/yaml-source.js';
import { ADAPTERS } from '../../src/adapters/index.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { runTool } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { adapterContract, FIXTURES, inputErrorOf, parseText } from './adapter-contract.js';

const SPEC: MarkerLinesSpec = {
  benchmark: 'migration',
  markers: [
    { pattern: '^MIGRATION_COUNT: (\\d+)$', metric: 'migrations', unit: 'count', direction: 'higher' },
    { pattern: '^P99_LATENCY_MS: (\\S+)$', metric: 'latency_p99', unit: 'ms' },
    { pattern: '^HEAP_MB: (?<value>\\S+)$', metric: 'heap', unit: 'MiB' },
  ],
};
const adapter = markerLinesAdapter(SPEC);

function parseYamlValue(text: string): Record<string, unknown> {
  return parseYaml(text, 'perf-gate.yml').data as Record<string, unknown>;
}
const fixtureText = readFileSync(join(FIXTURES, 'marker-lines/jvm-style-markers.txt'), 'utf8');

/** The program that produced the committed fixture (see fixtures/marker-lines/README.md). */
const PROGRAM = `import { performance } from 'node:perf_hooks';
console.log('starting 3 workers');
console.log('READY');
for (let round = 1; round <= 3; round++) {
  const t0 = performance.now();
  let migrations = 0;
  for (let i = 0; i < 200000 * round; i++) if ((i * 2654435761) % 7 === 0) migrations++;
  const ms = performance.now() - t0;
  console.log(\`round \${round} done\`);
  console.log(\`MIGRATION_COUNT: \${migrations}\`);
  console.log(\`P99_LATENCY_MS: \${ms.toFixed(3)}\`);
  console.log(\`HEAP_MB: \${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(1)}\`);
}
console.log('shutdown');
`;

describe('marker-lines adapter on a real program printing markers', () => {
  const dir = tempDir();
  let result: BenchmarkResult;
  let text: string;

  before(() => {
    writeFileSync(join(dir, 'markers.mjs'), PROGRAM);
    text = runTool(process.execPath, [join(dir, 'markers.mjs')]).stdout;
    result = parseText(adapter, text, join(dir, 'run.log'))[0]!;
  });

  test('is not in the auto-detect registry: it needs its configuration', () => {
    assert.equal(
      Object.values(ADAPTERS).some((a) => a.name === 'marker-lines'),
      false,
    );
  });

  test('each marker becomes its metric; repeats are samples in output order', () => {
    assert.equal(result.id, 'migration');
    const counts = [...text.matchAll(/^MIGRATION_COUNT: (\d+)$/gm)].map((m) => Number(m[1]));
    assert.deepEqual(result.metrics.migrations!.samples, counts);
    assert.equal(result.metrics.migrations!.unit, 'count');
    assert.equal(result.metrics.migrations!.direction, 'higher', 'the configured direction wins');
  });

  test('configured units convert to base units: ms to seconds, MiB to bytes', () => {
    const p99 = result.metrics.latency_p99!;
    assert.equal(p99.unit, 's');
    assert.equal(p99.sourceUnit, 'ms');
    assert.equal(p99.direction, 'lower');
    const printed = [...text.matchAll(/^P99_LATENCY_MS: (\S+)$/gm)].map((m) => Number(m[1]) / 1000);
    p99.samples!.forEach((s, i) => assert.ok(Math.abs(s - printed[i]!) < 1e-12));
    const heap = result.metrics.heap!;
    assert.equal(heap.unit, 'B');
    assert.ok(
      heap.samples!.every((b) => b > 1024 * 1024 && b < 1024 ** 3),
      'a node heap is between 1 MiB and 1 GiB',
    );
  });
});

describe('marker-lines adapter configuration and errors', () => {
  test('a named benchmark group splits lines into benchmarks', () => {
    const multi = markerLinesAdapter({
      benchmark: 'unnamed',
      markers: [{ pattern: '^(?<benchmark>\\w+) throughput: (?<value>[\\d.]+) ops/s$', metric: 'throughput', unit: 'ops/s' }],
    });
    const r = parseText(multi, 'a throughput: 100 ops/s\nb throughput: 250 ops/s\na throughput: 110 ops/s\n', 'x.log');
    assert.deepEqual(
      r.map((b) => b.id),
      ['a', 'b'],
    );
    assert.deepEqual(r[0]!.metrics.throughput!.samples, [100, 110]);
    assert.equal(r[1]!.metrics.throughput!.value, 250);
    assert.equal(r[1]!.metrics.throughput!.direction, 'higher', 'a rate is higher-is-better by default');
    assert.equal(r[1]!.metrics.throughput!.unit, '1/s');
  });

  test('a marker that never appears means the output is incomplete, unless optional', () => {
    const e = inputErrorOf(() => parseText(adapter, fixtureText.replace(/^HEAP_MB.*$/gm, ''), 'crashed.log'));
    assert.match(e.message, /heap .*never appeared/);
    const lenient = markerLinesAdapter({ ...SPEC, markers: SPEC.markers.map((m) => ({ ...m, optional: m.metric === 'heap' })) });
    const [r] = parseText(lenient, fixtureText.replace(/^HEAP_MB.*$/gm, ''), 'ok.log');
    assert.equal(r!.metrics.heap, undefined);
  });

  test('bad configuration names the key', () => {
    assert.equal(inputErrorOf(() => markerLinesAdapter({ benchmark: 'm', markers: [] })).key, 'format.markers');
    assert.equal(
      inputErrorOf(() => markerLinesAdapter({ benchmark: 'm', markers: [{ pattern: '(', metric: 'x', unit: 'ms' }] })).key,
      'format.markers[0].pattern',
    );
    assert.equal(
      inputErrorOf(() => markerLinesAdapter({ benchmark: 'm', markers: [{ pattern: 'X: \\d+', metric: 'x', unit: 'ms' }] })).key,
      'format.markers[0].pattern',
    );
  });

  test('the perf-gate.yml format mapping builds the same adapter, and typos name their key', () => {
    const yaml = [
      'name: marker-lines',
      'benchmark: migration',
      'markers:',
      "  - { pattern: '^MIGRATION_COUNT: (\\d+)$', metric: migrations, unit: count, direction: higher }",
      "  - { pattern: '^P99_LATENCY_MS: (\\S+)$', metric: latency_p99, unit: ms }",
      "  - { pattern: '^HEAP_MB: (\\S+)$', metric: heap, unit: MiB, optional: true }",
    ].join('\n');
    const { name: _name, ...options } = parseYamlValue(yaml);
    void _name;
    const [fromYaml] = parseText(markerLinesFromOptions(options, 'perf-gate.yml', 'migration'), fixtureText, 'run.log');
    const [direct] = parseText(adapter, fixtureText, 'run.log');
    assert.deepEqual(fromYaml, direct);
    assert.equal(
      inputErrorOf(() => markerLinesFromOptions({ markers: [{ patern: 'x', metric: 'm', unit: 'ms' }] }, 'perf-gate.yml', 'migration')).key,
      'format.markers[0].patern',
    );
    assert.equal(inputErrorOf(() => markerLinesFromOptions({ marker: [] }, 'perf-gate.yml', 'migration')).key, 'format.marker');
  });

  adapterContract(adapter, 'marker-lines', [
    { name: 'truncated', text: fixtureText.slice(0, fixtureText.indexOf('P99_LATENCY_MS')), line: true },
    { name: 'corrupt', text: fixtureText.replace('P99_LATENCY_MS: 6.691', 'P99_LATENCY_MS: 6.6.91'), line: true },
    { name: 'unrelated', text: 'hello\nworld\n', line: true },
  ]);
});
