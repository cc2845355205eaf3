import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { hyperfineAdapter } from '../../src/adapters/hyperfine.js';
import { fileInput } from '../../src/adapters/index.js';
import { InputError, type BenchmarkResult } from '../../src/model/index.js';
import { compileBusyLoop, hyperfine } from '../support/programs.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

requireTool('hyperfine', 'cc');

const FIXTURES = new URL('../fixtures/hyperfine/', import.meta.url).pathname;

function parseFile(path: string): BenchmarkResult[] {
  return hyperfineAdapter.parse(fileInput(path, readFileSync(path, 'utf8')));
}

function parseText(text: string, path = 'bench.json'): BenchmarkResult[] {
  return hyperfineAdapter.parse(fileInput(path, text));
}

function inputErrorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof InputError, `expected InputError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected an InputError');
}

describe('hyperfine adapter on real hyperfine output', () => {
  const dir = tempDir();
  let busy: string;
  before(() => {
    busy = compileBusyLoop(dir);
  });

  test('times become samples in seconds, in run order, with the summary kept', () => {
    const out = join(dir, 'basic.json');
    // -N: with a shell, hyperfine subtracts a start-up time measured once, and a stall
    // during that measurement makes every run of a command come out too short.
    hyperfine(['-N', '--warmup', '1', '--runs', '7', `${busy} 2000000`, `${busy} 8000000`], out);
    const raw = JSON.parse(readFileSync(out, 'utf8')) as { results: { times: number[]; mean: number }[] };
    const results = parseFile(out);
    assert.equal(results.length, 2);
    const [a, b] = results as [BenchmarkResult, BenchmarkResult];
    assert.equal(a.id, `${busy} 2000000`);
    assert.equal(a.status, 'ok');
    const time = a.metrics.time!;
    assert.equal(time.unit, 's');
    assert.equal(time.direction, 'lower');
    assert.deepEqual(time.samples, raw.results[0]!.times);
    assert.equal(time.summary?.n, 7);
    assert.equal(time.summary?.mean, raw.results[0]!.mean);
    // Physically sensible: a 2M-iteration loop takes well under a second and is not free.
    assert.ok(time.samples!.every((t) => t >= 0 && t < 1));
    // Four times the work takes longer even at its fastest run (the minimum resists load from other processes).
    assert.ok(b.metrics.time!.summary!.min! > time.summary!.min!);
  });

  test('-L parameters become params and the id is the substituted command', () => {
    const out = join(dir, 'params.json');
    hyperfine(['--runs', '2', '-L', 'n', '1000,2000', `${busy} {n}`], out);
    const results = parseFile(out);
    assert.deepEqual(
      results.map((r) => r.params),
      [{ n: '1000' }, { n: '2000' }],
    );
    assert.deepEqual(
      results.map((r) => r.id),
      [`${busy} 1000`, `${busy} 2000`],
    );
  });

  test('a command failing under -i is a failed benchmark with its exit code', () => {
    const out = join(dir, 'ignore-failure.json');
    hyperfine(['-i', '--runs', '3', "sh -c 'exit 3'"], out);
    const [r] = parseFile(out);
    assert.equal(r!.status, 'failed');
    assert.equal(r!.error?.exitCode, 3);
    assert.match(r!.error!.message, /exited with code 3 in 3 of 3 runs/);
  });

  test('the 0-byte file hyperfine leaves when its command fails is an error naming the file', () => {
    const out = join(dir, 'fail-noignore.json');
    const status = hyperfine(['--runs', '2', "sh -c 'exit 3'"], out, { allowFailure: true });
    assert.notEqual(status, 0);
    assert.equal(statSync(out).size, 0);
    const e = inputErrorOf(() => parseFile(out));
    assert.equal(e.file, out);
    assert.match(e.message, /empty/);
  });

  test('when a later command fails the file holds only the earlier ones (the run command turns the rest into failed rows)', () => {
    const out = join(dir, 'second-fails.json');
    const status = hyperfine(['--runs', '2', `${busy} 1000`, "sh -c 'exit 4'"], out, { allowFailure: true });
    assert.notEqual(status, 0);
    const results = parseFile(out);
    assert.deepEqual(
      results.map((r) => r.id),
      [`${busy} 1000`],
    );
  });
});

describe('hyperfine adapter on bad input', () => {
  const good = readFileSync(join(FIXTURES, 'two-commands.json'), 'utf8');

  test('a truncated file is an error that says so, naming file and line', () => {
    const e = inputErrorOf(() => parseText(good.slice(0, Math.floor(good.length / 2)), 'cut.json'));
    assert.equal(e.file, 'cut.json');
    assert.match(e.message, /truncated/);
    assert.ok(e.line !== undefined && e.line > 1);
  });

  test('corrupt JSON names the line of the damage', () => {
    const lines = good.split('\n');
    lines[5] = lines[5]!.replace(/,\s*$/, ' garbage,');
    const e = inputErrorOf(() => parseText(lines.join('\n'), 'corrupt.json'));
    assert.equal(e.line, 6);
    assert.match(e.message, /invalid JSON/);
  });

  test('NaN, negative or non-numeric times are rejected with the command and key', () => {
    const data = JSON.parse(good) as { results: { times: unknown[] }[] };
    for (const bad of [-0.5, 'NaN', null]) {
      const copy = structuredClone(data);
      copy.results[1]!.times[2] = bad;
      const e = inputErrorOf(() => parseText(JSON.stringify(copy, null, 2)));
      assert.equal(e.key, 'results[1].times[2]');
      assert.ok(e.line !== undefined);
      assert.match(e.message, /non-negative number of seconds/);
    }
  });

  test('an empty results array and a missing times array are errors', () => {
    assert.match(inputErrorOf(() => parseText('{"results": []}')).message, /empty/);
    assert.match(inputErrorOf(() => parseText('{"results": [{"command": "x", "mean": 1}]}')).message, /"times"/);
  });
});

describe('hyperfine detection', () => {
  test('accepts its own fixtures', () => {
    for (const name of readdirSync(FIXTURES).filter((n) => n.endsWith('.json'))) {
      const text = readFileSync(join(FIXTURES, name), 'utf8');
      if (text.trim() === '') continue;
      assert.deepEqual(hyperfineAdapter.detect(fileInput(name, text)), { match: true }, name);
    }
  });

  test('declines other formats with a reason', () => {
    const others = [
      '{"schema": "perf-gate/results@1", "created": "x", "benchmarks": []}',
      '{"bench": {"latency": {"value": 1}}}',
      '<testsuite/>',
      'BenchmarkX-8 100 5 ns/op',
    ];
    for (const text of others) {
      const d = hyperfineAdapter.detect(fileInput('x', text));
      assert.equal(d.match, false, text);
      assert.ok(!d.match && d.reason.length > 0);
    }
  });
});
