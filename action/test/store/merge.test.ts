import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mergeResultSets, type MergedTestbedMember } from '../../src/store/merge.js';
import { InputError, RESULT_SET_SCHEMA, type BenchmarkResult, type ResultSet, type Testbed } from '../../src/model/index.js';

const bench = (id: string, suite: string, samples: number[]): BenchmarkResult => ({
  id,
  suite,
  status: 'ok',
  metrics: { time: { unit: 's', direction: 'lower', samples } },
});
const testbed = (id: string): Testbed => ({ id, cpu: 'Intel(R) Xeon(R) E-2388G', cores: 16, governor: 'performance', turbo: false, smt: false });
const shard = (created: string, benchmarks: BenchmarkResult[], extra: Partial<ResultSet> = {}): ResultSet => ({
  schema: RESULT_SET_SCHEMA,
  commit: 'abc123',
  ref: 'refs/heads/main',
  created,
  testbed: testbed('aaaa000011112222'),
  benchmarks,
  ...extra,
});

describe('merging shard ResultSets', () => {
  test("joins the shards' environments: each asked about its own toolchains; a part they disagree on is left out", () => {
    const a = shard('2026-11-21T12:00:00Z', [bench('scan/a', 'scan', [1])], {
      environment: { kernel: '6.1.0-26-amd64', microcode: '0x1', toolchains: { rustc: 'rustc 1.83.0' }, lockfiles: { 'Cargo.lock': 'aaaaaaaaaaaaaaaa' } },
    });
    const b = shard('2026-11-21T12:05:00Z', [bench('parse/c', 'parse', [4])], {
      environment: {
        kernel: '6.1.0-26-amd64',
        microcode: '0x2',
        toolchains: { go: 'go version go1.26.8' },
        flags: { GOFLAGS: '-tags=x' },
        lockfiles: { 'Cargo.lock': 'bbbbbbbbbbbbbbbb' },
      },
    });
    const { set } = mergeResultSets([
      { file: 'shard-1.json', set: a },
      { file: 'shard-2.json', set: b },
    ]);
    assert.deepEqual(set.environment, {
      kernel: '6.1.0-26-amd64',
      toolchains: { rustc: 'rustc 1.83.0', go: 'go version go1.26.8' },
      flags: { GOFLAGS: '-tags=x' },
    });
    assert.equal(mergeResultSets([{ file: 'x.json', set: shard('2026-11-21T12:00:00Z', [bench('a', 'a', [1])]) }]).set.environment, undefined);
  });

  test('concatenates the shards in input order, keeps commit, ref and testbed, and takes the latest time', () => {
    const a = shard('2026-11-21T12:00:00Z', [bench('scan/a', 'scan', [1, 2]), bench('scan/b', 'scan', [3])]);
    const b = shard('2026-11-21T12:05:00Z', [bench('parse/c', 'parse', [4])]);
    const { set, warnings } = mergeResultSets([
      { file: 'shard-1.json', set: a },
      { file: 'shard-2.json', set: b },
    ]);
    assert.deepEqual(
      set.benchmarks.map((x) => x.id),
      ['scan/a', 'scan/b', 'parse/c'],
    );
    assert.equal(set.commit, 'abc123');
    assert.equal(set.ref, 'refs/heads/main');
    assert.equal(set.created, '2026-11-21T12:05:00Z');
    assert.deepEqual(set.testbed, testbed('aaaa000011112222'));
    assert.deepEqual(warnings, []);
    assert.equal(a.benchmarks.length, 2, 'inputs untouched');
  });

  test('a benchmark id in two shards with different results is an error naming both files', () => {
    const a = shard('2026-11-21T12:00:00Z', [bench('scan/a', 'scan', [1, 2])]);
    const b = shard('2026-11-21T12:01:00Z', [bench('scan/a', 'scan', [1, 2.5])]);
    assert.throws(
      () =>
        mergeResultSets([
          { file: 'artifacts/shard-1/results.json', set: a },
          { file: 'artifacts/shard-2/results.json', set: b },
        ]),
      (e: unknown) =>
        e instanceof InputError &&
        e.file === 'artifacts/shard-2/results.json' &&
        /"scan\/a" is also in artifacts\/shard-1\/results.json with different results/.test(e.message),
    );
  });

  test('an identical duplicate (the same artifact twice) is kept once, with a warning', () => {
    const a = shard('2026-11-21T12:00:00Z', [bench('scan/a', 'scan', [1, 2])]);
    const { set, warnings } = mergeResultSets([
      { file: 'x.json', set: a },
      { file: 'y.json', set: structuredClone(a) },
    ]);
    assert.equal(set.benchmarks.length, 1);
    assert.match(warnings[0] ?? '', /appears identically in x.json and y.json/);
  });

  test('shards of different commits or designs are refused', () => {
    const a = shard('2026-11-21T12:00:00Z', [bench('scan/a', 'scan', [1])]);
    const b = shard('2026-11-21T12:00:00Z', [bench('scan/b', 'scan', [1])], { commit: 'def456' });
    assert.throws(
      () =>
        mergeResultSets([
          { file: 'a.json', set: a },
          { file: 'b.json', set: b },
        ]),
      /b.json: commit: commit def456 differs from commit abc123 in a.json/,
    );
    const c = shard('2026-11-21T12:00:00Z', [bench('scan/c', 'scan', [1])], { design: 'interleaved' });
    const d = shard('2026-11-21T12:00:00Z', [bench('scan/d', 'scan', [1])], { design: 'sequential' });
    assert.throws(
      () =>
        mergeResultSets([
          { file: 'c.json', set: c },
          { file: 'd.json', set: d },
        ]),
      /d.json: design/,
    );
  });

  test('different testbeds are recorded under a mixed id with the members, and warned about', () => {
    const a = shard('2026-11-21T12:00:00Z', [bench('scan/a', 'scan', [1])]);
    const b = shard('2026-11-21T12:00:00Z', [bench('parse/b', 'parse', [1])], { testbed: testbed('bbbb000011112222') });
    const { set, warnings } = mergeResultSets([
      { file: 'a.json', set: a },
      { file: 'b.json', set: b },
    ]);
    assert.match(set.testbed?.id ?? '', /^mixed-[0-9a-f]{12}$/);
    assert.equal(set.testbed?.mixed, true);
    const members = set.testbed?.members as MergedTestbedMember[];
    assert.deepEqual(
      members.map((m) => [m.id, m.files, m.suites]),
      [
        ['aaaa000011112222', ['a.json'], ['scan']],
        ['bbbb000011112222', ['b.json'], ['parse']],
      ],
    );
    assert.match(warnings.join('\n'), /2 different testbeds .* flagged different-testbed/);
    // The mixed id depends only on the member ids, so the same pool gives the same id.
    const again = mergeResultSets([
      { file: 'b.json', set: b },
      { file: 'a.json', set: a },
    ]);
    assert.equal(again.set.testbed?.id, set.testbed?.id);
  });

  test('nothing to merge is an error', () => {
    assert.throws(() => mergeResultSets([]), InputError);
  });
});
