import { isDeepStrictEqual } from 'node:util';
import { createHash } from 'node:crypto';
import { InputError, newResultSet, type BenchmarkResult, type Environment, type ResultSet, type Testbed } from '../model/index.js';

/** One ResultSet to merge and the file it came from (named in errors). */
export interface MergeInput {
  file: string;
  set: ResultSet;
}

export interface MergeResult {
  set: ResultSet;
  /** Things the merge noticed but accepted (identical duplicates, differing testbeds), one sentence each. */
  warnings: string[];
}

/** A testbed that took part in a merge of shards measured on different testbeds. */
export interface MergedTestbedMember extends Testbed {
  /** The files whose results were measured on it. */
  files: string[];
  /** The suites measured on it (benchmarks without a suite count under their id). */
  suites: string[];
}

/**
 * Combines the ResultSets of matrix shards into one, in input order.
 *
 * - A benchmark id present in two inputs with different content is an error
 *   naming both files (a shard split must be a partition); identical copies
 *   (the same artifact downloaded twice) are kept once, with a warning.
 * - Shards must measure one commit and one design; a mismatch is an error.
 * - Testbeds: one shared id is kept as is. Different ids are never hidden:
 *   the merged testbed gets the id "mixed-<hash of the member ids>" (so it
 *   equals no single machine's id and a comparison with a one-machine baseline
 *   is flagged different-testbed), `mixed: true`, and `members` saying which
 *   files and suites ran on which testbed; a warning says so too.
 * - `created` is the latest input's (the moment the last shard finished).
 */
export function mergeResultSets(inputs: readonly MergeInput[]): MergeResult {
  if (inputs.length === 0) throw new InputError('perf-gate merge', 'expected at least one ResultSet to merge');
  const warnings: string[] = [];
  const commit = agree(inputs, 'commit', 'shards of one run must measure the same commit');
  const design = agree(inputs, 'design', 'shards of one run must use the same design (sequential or interleaved)');
  const refs = [...new Set(inputs.map((i) => i.set.ref).filter((r): r is string => r !== undefined))];
  if (refs.length > 1) warnings.push(`the inputs name different refs (${refs.join(', ')}); keeping ${refs[0]!}`);

  const benchmarks: BenchmarkResult[] = [];
  const origin = new Map<string, { file: string; benchmark: BenchmarkResult }>();
  for (const { file, set } of inputs) {
    for (const benchmark of set.benchmarks) {
      const earlier = origin.get(benchmark.id);
      if (earlier === undefined) {
        origin.set(benchmark.id, { file, benchmark });
        benchmarks.push(benchmark);
      } else if (isDeepStrictEqual(earlier.benchmark, benchmark)) {
        warnings.push(`benchmark "${benchmark.id}" appears identically in ${earlier.file} and ${file}; kept once`);
      } else {
        throw new InputError(
          file,
          `benchmark "${benchmark.id}" is also in ${earlier.file} with different results; shards must not overlap (check each job's shard: i/n)`,
          undefined,
          `benchmarks[id=${benchmark.id}]`,
        );
      }
    }
  }

  const created = inputs.map((i) => i.set.created).reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
  const merged: ResultSet = { ...newResultSet(created), benchmarks };
  if (commit !== undefined) merged.commit = commit;
  if (refs[0] !== undefined) merged.ref = refs[0];
  if (design !== undefined) merged.design = design;
  const testbed = mergeTestbeds(inputs, warnings);
  if (testbed) merged.testbed = testbed;
  const environment = mergeEnvironments(inputs);
  if (environment) merged.environment = environment;
  return { set: merged, warnings };
}

/**
 * The shards' environments as one: each shard asked only about its own
 * suites' toolchains, so the records are joined; a part the shards disagree
 * on (two kernels in one run) is left out rather than pick a side.
 */
function mergeEnvironments(inputs: readonly MergeInput[]): Environment | undefined {
  const sides = inputs.flatMap((i) => (i.set.environment ? [i.set.environment] : []));
  if (sides.length === 0) return undefined;
  const merged: Environment = {};
  for (const key of ['kernel', 'microcode'] as const) {
    const values = new Set(sides.map((e) => e[key]));
    if (values.size === 1 && sides[0]![key] !== undefined) merged[key] = sides[0]![key];
  }
  for (const key of ['toolchains', 'flags', 'lockfiles'] as const) {
    const joined: Record<string, string> = {};
    const dropped = new Set<string>();
    for (const [name, value] of sides.flatMap((e) => Object.entries(e[key] ?? {}))) {
      if (joined[name] !== undefined && joined[name] !== value) dropped.add(name);
      joined[name] = value;
    }
    for (const name of dropped) delete joined[name];
    if (Object.keys(joined).length > 0) merged[key] = joined;
  }
  return merged;
}

/** The one value of a ResultSet field all inputs that have it agree on; a disagreement names both files. */
function agree<K extends 'commit' | 'design'>(inputs: readonly MergeInput[], key: K, why: string): ResultSet[K] | undefined {
  let first: MergeInput | undefined;
  for (const input of inputs) {
    const value = input.set[key];
    if (value === undefined) continue;
    if (first === undefined) first = input;
    else if (first.set[key] !== value) {
      throw new InputError(input.file, `${key} ${String(value)} differs from ${key} ${String(first.set[key])} in ${first.file}; ${why}`, undefined, key);
    }
  }
  return first?.set[key];
}

function mergeTestbeds(inputs: readonly MergeInput[], warnings: string[]): Testbed | undefined {
  const byId = new Map<string, { testbed: Testbed; files: string[]; suites: Set<string> }>();
  const without: string[] = [];
  for (const { file, set } of inputs) {
    if (!set.testbed) {
      without.push(file);
      continue;
    }
    const entry = byId.get(set.testbed.id) ?? { testbed: set.testbed, files: [], suites: new Set<string>() };
    entry.files.push(file);
    for (const b of set.benchmarks) entry.suites.add(b.suite ?? b.id);
    byId.set(set.testbed.id, entry);
  }
  if (byId.size === 0) return undefined;
  if (without.length > 0)
    warnings.push(`${without.join(', ')} record${without.length === 1 ? 's' : ''} no testbed; the merged testbed describes only the others`);
  if (byId.size === 1) return [...byId.values()][0]!.testbed;
  const ids = [...byId.keys()].sort();
  const members: MergedTestbedMember[] = [...byId.values()].map((e) => ({ ...e.testbed, files: e.files, suites: [...e.suites] }));
  warnings.push(
    `the shards ran on ${byId.size} different testbeds (${[...byId.values()].map((e) => `${e.testbed.id}: ${e.files.join(', ')}`).join('; ')}); comparisons with this set are flagged different-testbed`,
  );
  return { id: `mixed-${createHash('sha256').update(ids.join('\n')).digest('hex').slice(0, 12)}`, mixed: true, members };
}
