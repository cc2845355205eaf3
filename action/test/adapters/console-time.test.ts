import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { consoleTimeAdapter as adapter } from '../../src/adapters/console-time.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { adapterContract, byId, FIXTURES, inputErrorOf, parseFile, parseText } from './adapter-contract.js';
import { tempDir } from '../support/temp.js';

const SCRIPT = new URL('../support/harness-src/console-time.mjs', import.meta.url).pathname;
const BENCHER = join(FIXTURES, 'console-time/bencher-four.txt');

describe('console.time adapter on a real Node run', () => {
  const dir = tempDir('perf-gate-console-time-');
  const out = join(dir, 'timers.txt');
  let text: string;
  let results: BenchmarkResult[];
  before(() => {
    const r = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    writeFileSync(out, r.stdout);
    text = r.stdout;
    results = parseFile(adapter, out);
  });

  test('auto-detection picks console-time for a file of timer lines', () => {
    assert.equal(chooseAdapter(fileInput(out, text)).name, 'console-time');
    assert.equal(chooseAdapter(fileInput(BENCHER, readFileSync(BENCHER, 'utf8'))).name, 'console-time');
  });

  test('one benchmark per label, a label holding ": " kept whole', () => {
    assert.deepEqual(
      results.map((r) => r.id),
      ['wait 20ms', 'parse: config', 'busy', 'over a second'],
    );
    assert.ok(results.every((r) => r.status === 'ok'));
  });

  test('a label timed three times gives three samples in order, ms → s, lower is better', () => {
    const printed = [...text.matchAll(/^wait 20ms: ([\d.]+)ms$/gm)].map((m) => Number(m[1]) / 1000);
    assert.equal(printed.length, 3);
    const time = byId(results, 'wait 20ms').metrics.time!;
    assert.equal(time.unit, 's');
    assert.equal(time.direction, 'lower');
    assert.equal(time.value, undefined);
    assert.equal(time.samples!.length, 3);
    time.samples!.forEach((v, i) => assert.ok(Math.abs(v - printed[i]!) < 1e-12, `sample ${i}: ${v} vs ${printed[i]}`));
    assert.ok(
      time.samples!.every((s) => s >= 0.019 && s < 5),
      'each wait is at least 20 ms',
    );
  });

  test('Node switches to seconds past one second: "1.091s"', () => {
    assert.match(text, /^over a second: 1\.\d{3}s$/m);
    const v = byId(results, 'over a second').metrics.time!.value!;
    assert.ok(v >= 1.05 && v < 10, `read ${v}`);
  });

  test("Node's minute and hour forms, Deno's integer ms, the browser's suffix", () => {
    const lines = 'load: 1:02.345 (m:ss.mmm)\nmigrate: 2:03:04.500 (h:mm:ss.mmm)\nfast: 12ms\n';
    const r = parseText(adapter, lines, 'forms.txt');
    assert.equal(byId(r, 'load').metrics.time!.value, 62.345);
    assert.equal(byId(r, 'migrate').metrics.time!.value, 2 * 3600 + 3 * 60 + 4.5);
    assert.equal(byId(r, 'fast').metrics.time!.value, 0.012);
    const bencher = parseFile(adapter, BENCHER);
    assert.deepEqual(
      bencher.map((b) => b.id),
      ['default', 'benchmark_1', 'benchmark 2', 'benchmark 3: The Third - timer/timerEnd'],
    );
    assert.equal(byId(bencher, 'benchmark_1').metrics.time!.value, 12.714);
  });

  test('auto-detection never claims a log that merely contains timer lines; named, it skips the rest', () => {
    const log = `starting server\n${text}listening on 3000\n`;
    const detection = adapter.detect(fileInput('log.txt', log));
    assert.equal(detection.match, false);
    assert.match(!detection.match ? detection.reason : '', /not every line/);
    const named = parseText(adapter, log, 'log.txt');
    assert.deepEqual(
      named.map((r) => r.id),
      results.map((r) => r.id),
    );
  });

  test('a last line cut inside its number is an error naming the line', () => {
    const e = inputErrorOf(() => parseText(adapter, `${text}busy: 5.6`, 'cut.txt'));
    assert.equal(e.line, text.split('\n').length);
    assert.match(e.message, /cut short/);
  });

  adapterContract(adapter, 'console-time', [
    { name: 'truncated', text: 'a: 1.5ms\nb: 2', line: true },
    { name: 'no timer lines', text: 'hello\nworld\n' },
  ]);
});
