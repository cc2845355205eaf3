import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gnuTimeAdapter as adapter } from '../../src/adapters/gnu-time.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import { compileAlloc, runTool } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { adapterContract, FIXTURES, parseFile, parseText } from './adapter-contract.js';
import { requireTool } from '../support/tools.js';

requireTool('/usr/bin/time', 'gcc');

const captured = readFileSync(join(FIXTURES, 'gnu-time/alloc-v.txt'), 'utf8');

describe('GNU time adapter on real /usr/bin/time -v output', () => {
  const dir = tempDir();
  let alloc: string;
  const timeV = (out: string, command: string[], extra: string[] = []): void => {
    runTool('/usr/bin/time', ['-v', ...extra, '-o', out, ...command], { allowFailure: true, timeoutMs: 60_000 });
  };

  before(() => {
    alloc = compileAlloc(dir);
  });

  test('max_rss is bytes from kbytes; elapsed, user and system time are seconds', () => {
    const out = join(dir, 'alloc.time');
    timeV(out, [alloc]);
    const text = readFileSync(out, 'utf8');
    assert.equal(chooseAdapter(fileInput(out, text)).name, 'gnu-time');
    const [r] = parseText(adapter, text, out);
    assert.equal(r!.id, alloc);
    assert.equal(r!.status, 'ok');
    const kib = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(text)![1]);
    assert.equal(r!.metrics.max_rss!.value, kib * 1024);
    assert.equal(r!.metrics.max_rss!.unit, 'B');
    assert.equal(r!.metrics.max_rss!.direction, 'lower');
    assert.ok(r!.metrics.max_rss!.value! > 300_000, 'the program touches 310,000 bytes');
    for (const name of ['time', 'user_time', 'system_time']) {
      assert.equal(r!.metrics[name]!.unit, 's');
      assert.ok(r!.metrics[name]!.value! >= 0 && r!.metrics[name]!.value! < 10);
    }
    assert.ok(r!.metrics.page_faults_minor!.value! > 10);
    assert.equal(r!.metrics.page_faults_minor!.unit, 'count');
  });

  test('a program holding 64 MB has a max_rss of at least that', () => {
    const out = join(dir, 'big.time');
    timeV(out, ['python3', '-c', 'b = bytearray(64 * 1024 * 1024); b[::4096] = b"x" * len(b[::4096])']);
    const [r] = parseFile(adapter, out);
    assert.ok(r!.metrics.max_rss!.value! >= 64 * 1024 * 1024, `max_rss ${r!.metrics.max_rss!.value} B`);
  });

  test('a non-zero exit status makes the benchmark failed', () => {
    const out = join(dir, 'exit3.time');
    timeV(out, ['sh', '-c', 'exit 3']);
    assert.match(readFileSync(out, 'utf8'), /Command exited with non-zero status 3/);
    const [r] = parseFile(adapter, out);
    assert.equal(r!.status, 'failed');
    assert.equal(r!.error!.exitCode, 3);
    assert.match(r!.error!.message, /status 3/);
  });

  test('a signal makes the benchmark failed', () => {
    const out = join(dir, 'killed.time');
    timeV(out, ['sh', '-c', 'kill -9 $$']);
    const [r] = parseFile(adapter, out);
    assert.equal(r!.status, 'failed');
    assert.match(r!.error!.message, /signal 9/);
  });

  test('-a appends runs; runs of one command become samples in order', () => {
    const out = join(dir, 'three.time');
    for (let i = 0; i < 3; i++) timeV(out, [alloc], ['-a']);
    const [r] = parseFile(adapter, out);
    assert.equal(r!.metrics.max_rss!.samples!.length, 3);
    assert.equal(r!.metrics.time!.samples!.length, 3);
  });
});

describe('GNU time adapter on the committed capture', () => {
  test('elapsed m:ss.ss and h:mm:ss both parse', () => {
    const [r] = parseText(adapter, captured.replace(/m:ss\): 0:00.00/, 'm:ss): 1:02:03'), 'long.txt');
    assert.equal(r!.metrics.time!.value, 3723);
    const [s] = parseText(adapter, captured.replace(/m:ss\): 0:00.00/, 'm:ss): 2:05.50'), 'short.txt');
    assert.equal(s!.metrics.time!.value, 125.5);
    assert.equal(parseText(adapter, captured, 'c.txt')[0]!.metrics.max_rss!.value, 1484 * 1024);
  });

  adapterContract(adapter, 'gnu-time', [
    { name: 'truncated', text: captured.slice(0, captured.indexOf('Exit status')), line: true },
    { name: 'corrupt', text: captured.replace('(kbytes): 1484', '(kbytes): 14x4'), line: true },
    { name: 'format output', text: '0.16 0.11 0.05 62092\n' },
  ]);
});
