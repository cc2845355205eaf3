import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { junitAdapter as adapter, parseSeconds } from '../../src/adapters/junit.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { runTool } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { requirePython } from '../support/tools.js';
import { adapterContract, byId, FIXTURES, inputErrorOf, parseFile, parseText } from './adapter-contract.js';

const SUREFIRE = join(FIXTURES, 'junit/surefire-3.1.0-handwritten-grouped-time.xml');
const nodeText = readFileSync(join(FIXTURES, 'junit/node-test-reporter.xml'), 'utf8');

const NODE_TESTS = `import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
test('adds', () => assert.equal(1 + 1, 2));
test('sleeps 60ms', async () => { await new Promise((r) => setTimeout(r, 60)); });
test('fails', () => assert.equal(1, 2));
test('skipped', { skip: 'not today' }, () => {});
describe('suite A', () => { test('nested ok', () => {}); });
`;

const PY_TESTS = `import time, pytest

def test_fast():
    pass

def test_sleeps_60ms():
    time.sleep(0.06)

def test_fail():
    assert 1 == 2, "math is broken"

@pytest.mark.skip(reason="not today")
def test_skipped():
    pass

class TestGroup:
    def test_in_class(self):
        pass
`;

describe('JUnit adapter on node --test --test-reporter=junit', () => {
  const dir = tempDir();
  const out = join(dir, 'node-junit.xml');
  let results: BenchmarkResult[];

  before(() => {
    writeFileSync(join(dir, 'sample.test.mjs'), NODE_TESTS);
    // Without NODE_TEST_CONTEXT the child is a top-level run that writes its own report.
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    runTool(process.execPath, ['--test', '--test-reporter=junit', `--test-reporter-destination=${out}`, join(dir, 'sample.test.mjs')], {
      cwd: dir,
      allowFailure: true,
      env,
    });
    results = parseFile(adapter, out);
  });

  test('auto-detection picks junit', () => {
    assert.equal(chooseAdapter(fileInput(out, readFileSync(out, 'utf8'))).name, 'junit');
  });

  test('each testcase is a benchmark with its time in seconds; skipped ones are left out', () => {
    assert.deepEqual(results.map((r) => r.id).sort(), ['test.adds', 'test.fails', 'test.nested ok', 'test.sleeps 60ms']);
    const slow = byId(results, 'test.sleeps 60ms').metrics.time!;
    assert.equal(slow.unit, 's');
    assert.equal(slow.direction, 'lower');
    assert.ok(slow.value! >= 0.055 && slow.value! < 5, `slept 60 ms, measured ${slow.value} s`);
    assert.ok(byId(results, 'test.adds').metrics.time!.value! < slow.value!);
    assert.equal(byId(results, 'test.nested ok').suite, 'suite A');
  });

  test('a failing test is failed with its message', () => {
    const f = byId(results, 'test.fails');
    assert.equal(f.status, 'failed');
    assert.match(f.error!.message, /1 !== 2/);
    assert.equal(byId(results, 'test.adds').status, 'ok');
  });
});

describe('JUnit adapter on pytest --junitxml', () => {
  requirePython('pytest');
  const dir = tempDir();
  const out = join(dir, 'pytest-junit.xml');
  let results: BenchmarkResult[];

  before(() => {
    writeFileSync(join(dir, 'test_sample.py'), PY_TESTS);
    runTool('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '-p', 'no:benchmark', `--junitxml=${out}`, 'test_sample.py'], {
      cwd: dir,
      allowFailure: true,
      timeoutMs: 60_000,
    });
    results = parseFile(adapter, out);
  });

  test('classname.name ids, times, the failure message, skipped left out', () => {
    assert.deepEqual(results.map((r) => r.id).sort(), [
      'test_sample.TestGroup.test_in_class',
      'test_sample.test_fail',
      'test_sample.test_fast',
      'test_sample.test_sleeps_60ms',
    ]);
    assert.ok(byId(results, 'test_sample.test_sleeps_60ms').metrics.time!.value! >= 0.055);
    const fail = byId(results, 'test_sample.test_fail');
    assert.equal(fail.status, 'failed');
    assert.match(fail.error!.message, /math is broken/);
  });
});

describe('JUnit adapter on Surefire and Swift (hand-written) and the committed captures', () => {
  test("Surefire's grouped time 2,120.532 is 2120.532 s; failure and error both fail the row", () => {
    const r = parseFile(adapter, SUREFIRE);
    assert.equal(byId(r, 'com.example.sim.SimulationSoakTest.soakTenThousandTicks').metrics.time!.value, 2120.532);
    const failure = byId(r, 'com.example.sim.SimulationSoakTest.tickLatencyUnderTarget');
    assert.equal(failure.status, 'failed');
    assert.equal(failure.error!.message, 'expected: <true> but was: <false>');
    const error = byId(r, 'com.example.sim.SimulationSoakTest.migrationCompletes');
    assert.equal(error.status, 'failed');
    assert.match(error.error!.message, /node 3 unreachable/);
    assert.equal(r.length, 3, 'the skipped gpuPath is left out');
  });

  test('Swift XCTest and Swift Testing: exponent times and bare <failure>', () => {
    const xc = parseFile(adapter, join(FIXTURES, 'junit/swift-xctest-parallel-handwritten.xml'));
    assert.equal(byId(xc, 'ActorPoolTests.CodecTests.testRoundTrip').metrics.time!.value, 1e-5);
    assert.equal(byId(xc, 'ActorPoolTests.ConcurrencyTests.testCancellationIsPrompt').status, 'failed');
    const st = parseFile(adapter, join(FIXTURES, 'junit/swift-testing-handwritten.xml'));
    assert.deepEqual(
      st.map((r) => r.id),
      ['ActorPoolTests.PoolSuite.drainsQueue()', 'ActorPoolTests.PoolSuite.emptyPool()'],
    );
    assert.equal(byId(st, 'ActorPoolTests.PoolSuite.emptyPool()').metrics.time!.value, 3.2e-5);
  });

  test('time strings as producers write them', () => {
    assert.equal(parseSeconds('2,120.532'), 2120.532);
    assert.equal(parseSeconds('0,03'), 0.03);
    assert.equal(parseSeconds('1e-05'), 1e-5);
    assert.equal(parseSeconds('12.46'), 12.46);
    assert.equal(parseSeconds('abc'), undefined);
    assert.equal(parseSeconds('-1'), undefined);
  });

  test('a bad time names the testcase line', () => {
    const e = inputErrorOf(() => parseText(adapter, nodeText.replace('time="0.031391"', 'time="fast"'), 'bad.xml'));
    assert.equal(e.line, 4);
    assert.match(e.message, /test\.slow/);
  });

  test('all testcases skipped is an error: nothing was measured', () => {
    const xml = '<testsuite name="s"><testcase classname="c" name="t" time="0"><skipped/></testcase></testsuite>';
    assert.match(inputErrorOf(() => parseText(adapter, xml, 'skip.xml')).message, /skipped/);
  });

  adapterContract(adapter, 'junit', [
    { name: 'truncated', text: nodeText.slice(0, nodeText.indexOf('<testsuite ')), line: true },
    { name: 'corrupt', text: nodeText.replace('<testcase name="adds"', '<testcase name="adds" <'), line: true },
    { name: 'no testcases', text: '<testsuites><testsuite name="empty"></testsuite></testsuites>' },
  ]);
});
