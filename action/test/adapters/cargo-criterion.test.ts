import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cargoCriterionAdapter } from '../../src/adapters/cargo-criterion.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { adapterContract, byId, FIXTURES, inputErrorOf, parseFile, parseText } from './adapter-contract.js';
import { EXAMPLES, factorBeyondSpread, gateRow, runHarness } from '../support/compiled-harnesses.js';
import { requireTool } from '../support/tools.js';

requireTool('cargo', 'cargo-criterion');

const FIXTURE = join(FIXTURES, 'cargo-criterion/message-format-json.jsonl');
const IDS = ['sum/split/100', 'sum/bytes/100', 'sum/split/1000', 'sum/bytes/1000', 'make_input_100'];

interface Message {
  reason: string;
  id: string;
  iteration_count: number[];
  measured_values: number[];
  mean: { estimate: number };
  throughput: { per_iteration: number; unit: string }[];
}

function messages(text: string): Message[] {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Message)
    .filter((m) => m.reason === 'benchmark-complete');
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

describe('cargo-criterion adapter on a real cargo criterion --message-format=json run', () => {
  let stdout: string;
  let results: BenchmarkResult[];
  before(() => {
    stdout = runHarness(
      'cargo',
      [
        'criterion',
        '--bench',
        'parse',
        '--message-format=json',
        '--plotting-backend',
        'disabled',
        '--',
        '--warm-up-time',
        '0.05',
        '--measurement-time',
        '0.1',
        '--sample-size',
        '10',
      ],
      {
        cwd: EXAMPLES.rustCriterion,
        timeoutMs: 170_000,
      },
    ).stdout;
    results = parseText(cargoCriterionAdapter, stdout, '/work/out/cargo-criterion.jsonl');
  });

  test('one benchmark per benchmark-complete message, in order; group-complete lines are skipped', () => {
    assert.match(stdout, /"reason":"group-complete"/);
    assert.deepEqual(
      results.map((r) => r.id),
      IDS,
    );
  });

  test("samples are measured_values[i] / iteration_count[i] in seconds, matching criterion's own mean", () => {
    for (const m of messages(stdout)) {
      const time = byId(results, m.id).metrics.time!;
      assert.equal(time.unit, 's');
      assert.equal(time.direction, 'lower');
      assert.equal(time.samples!.length, m.iteration_count.length);
      assert.equal(time.samples!.length, 10);
      time.samples!.forEach((s, i) => assert.ok(Math.abs(s - (m.measured_values[i]! / m.iteration_count[i]!) * 1e-9) < 1e-18));
      const mean = time.samples!.reduce((a, b) => a + b, 0) / time.samples!.length;
      assert.ok(Math.abs(mean / (m.mean.estimate * 1e-9) - 1) < 1e-6, `${m.id}: ${mean} vs ${m.mean.estimate} ns`);
      // Seconds, not nanoseconds: a sum of a few thousand numbers per iteration, under 0.1 s even
      // when a stall of a few hundred milliseconds lands in a sample of few iterations.
      assert.ok(
        time.samples!.every((s) => s > 1e-9 && s < 0.1),
        time.samples!.join(', '),
      );
    }
  });

  test('throughput in bytes becomes bytes_per_second in B/s, higher is better; none where the benchmark sets none', () => {
    const b = byId(results, 'sum/split/1000');
    const thrpt = b.metrics.bytes_per_second!;
    assert.equal(thrpt.unit, 'B/s');
    assert.equal(thrpt.direction, 'higher');
    const perIteration = messages(stdout).find((m) => m.id === 'sum/split/1000')!.throughput[0]!.per_iteration;
    thrpt.samples!.forEach((rate, i) => assert.ok(Math.abs(rate * b.metrics.time!.samples![i]! - perIteration) < 1e-6));
    assert.equal(byId(results, 'make_input_100').metrics.bytes_per_second, undefined);
  });
});

describe('cargo-criterion adapter on the committed capture', () => {
  const text = readFileSync(FIXTURE, 'utf8');

  test('reads every benchmark with 10 samples', () => {
    const results = parseFile(cargoCriterionAdapter, FIXTURE);
    assert.deepEqual(
      results.map((r) => r.id),
      IDS,
    );
    assert.ok(results.every((r) => r.metrics.time!.samples!.length === 10));
  });

  test('a run faster beyond its whole spread is improved in throughput and time, never regressed', () => {
    const base = byId(parseText(cargoCriterionAdapter, text, 'base.jsonl'), 'sum/bytes/1000');
    const factor = factorBeyondSpread(base.metrics.time!.samples!);
    const faster = text
      .split('\n')
      .map((line) => {
        if (!line.includes('"benchmark-complete"')) return line;
        const m = JSON.parse(line) as Message;
        return JSON.stringify({ ...m, measured_values: m.measured_values.map((v) => v / factor) });
      })
      .join('\n');
    const cur = byId(parseText(cargoCriterionAdapter, faster, 'cur.jsonl'), 'sum/bytes/1000');
    assert.ok(median(cur.metrics.bytes_per_second!.samples!) > 0.99 * factor * median(base.metrics.bytes_per_second!.samples!));
    assert.equal(gateRow(base, cur, 'bytes_per_second').status, 'improved');
    assert.equal(gateRow(base, cur, 'time').status, 'improved');
  });

  test('a stream with no benchmark-complete message is an error, not an empty result', () => {
    const only = text
      .split('\n')
      .filter((l) => l.includes('group-complete'))
      .join('\n');
    const error = inputErrorOf(() => parseText(cargoCriterionAdapter, only, '/work/out/groups.jsonl'));
    assert.equal(error.file, '/work/out/groups.jsonl');
    assert.match(error.message, /no "benchmark-complete"/);
  });
});

const lines = readFileSync(FIXTURE, 'utf8').split('\n');
adapterContract(cargoCriterionAdapter, 'cargo-criterion', [
  { name: 'truncated', text: readFileSync(FIXTURE, 'utf8').slice(0, Math.floor(readFileSync(FIXTURE, 'utf8').length * 0.6)), line: true },
  {
    name: 'corrupt',
    text: [...lines.slice(0, 2), '{"reason":"benchmark-complete","id":"x","iteration_count":[1,2],"measured_values":[5],"unit":"ns"}', ...lines.slice(2)].join(
      '\n',
    ),
    line: true,
  },
  { name: 'garbage line', text: [...lines.slice(0, 1), 'Benchmarking sum/split/100: Analyzing', ...lines.slice(1)].join('\n'), line: true },
]);
