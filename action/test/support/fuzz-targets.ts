import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ADAPTERS, chooseAdapter, fileInput, parseInput } from '../../src/adapters/index.js';
import { validateResultSet } from '../../src/adapters/result-set.js';
import { parseBudgets } from '../../src/config/budgets.js';
import { parsePerfGateConfig } from '../../src/config/perf-gate-config.js';
import { toBmf } from '../../src/store/bmf.js';
import { compileGlob, InputError, newResultSet, parseQuantity, type BenchmarkResult, type ResultSet } from '../../src/model/index.js';
import { decodeMonth, decodeRun, encodeMonth, encodeRun, runLine } from '../../src/store/history/codec.js';
import { mutated } from './mutations.js';

/**
 * What the fuzz properties run (action/test/fuzz/, and `npm run fuzz`): each
 * parser of untrusted text with the valid inputs it starts from. The rule is
 * the same for all of them: a parser either returns a correct result or
 * throws an InputError naming the file; anything else (a TypeError, a
 * RangeError from deep recursion, NaN in a result) is a crash, which the CLI
 * would report as an internal error.
 */

export const ROOT = new URL('../../../', import.meta.url).pathname;
const FIXTURES = join(ROOT, 'action/test/fixtures');

/** A valid input a target starts from. */
export interface Seed {
  path: string;
  text: string;
}

/** How one input ended. */
export type Outcome = { kind: 'parsed' } | { kind: 'input-error'; error: InputError } | { kind: 'crash'; why: string };

export interface FuzzTarget {
  /** e.g. "adapter hyperfine", "budgets". */
  name: string;
  seeds: Seed[];
  /** Runs the parser on `text` as if it were the file `path`; never throws. */
  run(text: string, path: string): Outcome;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

function isText(path: string): boolean {
  return !readFileSync(path).includes(0);
}

/**
 * An error thrown by a parser, classified. An InputError must name the file
 * it was given, or (criterion) a file beside it, so a user knows which file
 * to look at.
 */
export function classifyError(error: unknown, path: string): Outcome {
  if (!(error instanceof InputError)) return { kind: 'crash', why: `threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}` };
  const named = error.file === path || error.file.startsWith(`${dirname(path)}/`);
  if (!named) return { kind: 'crash', why: `an InputError naming ${JSON.stringify(error.file)} instead of ${path}` };
  if (!error.message.startsWith(error.file))
    return { kind: 'crash', why: `an InputError whose message does not start with its file: ${error.message.slice(0, 200)}` };
  return { kind: 'input-error', error };
}

/** Results are correct when they make a ResultSet that survives JSON and its schema: no NaN, no Infinity, no missing field. */
export function checkResults(results: BenchmarkResult[], path: string): Outcome {
  if (!Array.isArray(results)) return { kind: 'crash', why: 'parse returned no array' };
  const json = JSON.stringify(newResultSet('2026-01-01T00:00:00Z', results));
  try {
    validateResultSet(JSON.parse(json), path);
  } catch (error) {
    return { kind: 'crash', why: `an invalid result: ${(error as Error).message}` };
  }
  const ids = results.map((r) => r.id);
  if (new Set(ids).size !== ids.length) return { kind: 'crash', why: 'two results share an id' };
  if (results.some((r) => r.id === '')) return { kind: 'crash', why: 'a result with an empty id' };
  return { kind: 'parsed' };
}

function outcomeOf(path: string, parse: () => BenchmarkResult[]): Outcome {
  let results: BenchmarkResult[];
  try {
    results = parse();
  } catch (error) {
    return classifyError(error, path);
  }
  return checkResults(results, path);
}

/** Every text fixture under action/test/fixtures/, by the adapter that detects it. */
function fixturesByAdapter(): Map<string, Seed[]> {
  const out = new Map<string, Seed[]>();
  for (const path of walk(FIXTURES)) {
    if (/\.md$/i.test(path) || !isText(path)) continue;
    const text = readFileSync(path, 'utf8');
    let name: string;
    try {
      name = chooseAdapter(fileInput(path, text)).name;
    } catch {
      continue; // a fixture of something else (a report golden, a broken input on purpose)
    }
    try {
      if (parseInput(fileInput(path, text), name).length === 0) continue;
    } catch {
      continue; // a deliberately broken fixture is no seed: a seed must parse
    }
    out.set(name, [...(out.get(name) ?? []), { path, text }]);
  }
  return out;
}

/**
 * One target per adapter: the adapter named (as `--format` does, through
 * the registry's parse and its checks) on mutations of its own fixtures. Adapters that detect nothing (custom JSON)
 * start from the fixtures of their folder.
 */
export function adapterTargets(): FuzzTarget[] {
  const seeds = fixturesByAdapter();
  seeds.set('resultset', storedBaselines());
  seeds.set(
    'bmf',
    storedBaselines().map((s) => ({
      path: s.path.replace(/\.json$/, '.bmf.json'),
      text: JSON.stringify(toBmf(validateResultSet(JSON.parse(s.text), s.path)), null, 2),
    })),
  );
  return Object.values(ADAPTERS).flatMap((adapter) => {
    const own = seeds.get(adapter.name) ?? folderSeeds(adapter.name);
    if (own.length === 0) return [];
    return [
      { name: `adapter ${adapter.name}`, seeds: own, run: (text: string, path: string) => outcomeOf(path, () => parseInput(fileInput(path, text), adapter)) },
    ];
  });
}

/** Auto-detection over every fixture: a mutated file may look like another format, and must still end in a parse or an InputError. */
export function autoDetectTarget(): FuzzTarget {
  return {
    name: 'auto-detection',
    seeds: [...fixturesByAdapter().values()].flat(),
    run: (text, path) => outcomeOf(path, () => parseInput(fileInput(path, text))),
  };
}

/** perf-gate's own ResultSets: the baselines committed in the repository and its example (BMF seeds are made from them). */
function storedBaselines(): Seed[] {
  return ['baselines/results.json', 'examples/cli-hyperfine/baselines/results.json'].map((rel) => ({
    path: join(ROOT, rel),
    text: readFileSync(join(ROOT, rel), 'utf8'),
  }));
}

function folderSeeds(format: string): Seed[] {
  const folder = join(FIXTURES, format.startsWith('custom') ? 'custom-json' : format);
  try {
    return walk(folder)
      .filter((p) => !/\.md$/i.test(p) && isText(p))
      .flatMap((path) => {
        const text = readFileSync(path, 'utf8');
        try {
          return ADAPTERS[format]!.parse(fileInput(path, text)).length > 0 ? [{ path, text }] : [];
        } catch {
          return [];
        }
      });
  } catch {
    return [];
  }
}

function repoFiles(test: (rel: string) => boolean): Seed[] {
  const out: Seed[] = [];
  const visit = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name.startsWith('.') || name === 'target' || name === 'dist') continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) visit(path);
      else if (test(relative(ROOT, path))) out.push({ path, text: readFileSync(path, 'utf8') });
    }
  };
  visit(join(ROOT, 'examples'));
  visit(join(ROOT, 'budgets'));
  for (const top of ['perf-gate.yml']) out.push(...(test(top) ? [{ path: join(ROOT, top), text: readFileSync(join(ROOT, top), 'utf8') }] : []));
  return out;
}

/** The outcome of a parser whose result needs no further check (config, history files: they validate themselves). */
function plainOutcome(path: string, parse: () => unknown): Outcome {
  try {
    parse();
    return { kind: 'parsed' };
  } catch (error) {
    return classifyError(error, path);
  }
}

/** Budget files: every budgets/*.yml of the repository and its examples. */
export function budgetsTarget(): FuzzTarget {
  return {
    name: 'budgets',
    seeds: repoFiles((rel) => /(^|\/)budgets\/[^/]+\.ya?ml$/.test(rel)),
    run: (text, path) => plainOutcome(path, () => parseBudgets(text, path)),
  };
}

/** perf-gate.yml: the repository's own and every example's. */
export function configTarget(): FuzzTarget {
  return {
    name: 'perf-gate.yml',
    seeds: repoFiles((rel) => /(^|\/)perf-gate\.yml$/.test(rel) && !rel.includes('budgets/')),
    run: (text, path) => plainOutcome(path, () => parsePerfGateConfig(text, path, dirname(path))),
  };
}

/** The quantity parser of budgets (`10ms`, `20MB`, `100/s`): a finite quantity or undefined, never a throw. */
export function quantityTarget(): FuzzTarget {
  const seeds = ['10ms', '1.5s', '20MB', '100/s', '5%', '2 GiB/s', '1e3 ops/s', '250us', '0.5 min', '42'].map((text) => ({ path: 'quantity', text }));
  return {
    name: 'quantity',
    seeds,
    run(text) {
      try {
        const q = parseQuantity(text);
        return q === undefined || Number.isFinite(q.value) ? { kind: 'parsed' } : { kind: 'crash', why: `${JSON.stringify(text)} gave ${q.value}` };
      } catch (error) {
        return { kind: 'crash', why: `threw ${String(error)}` };
      }
    },
  };
}

/**
 * History files, as Latin-1 text so the text mutations act on bytes: a
 * gzip'd single-run file and a brotli'd month file decode to valid runs or
 * fail with an InputError naming the file.
 */
export function historyFileTargets(): FuzzTarget[] {
  const run = (commit: string, i: number): ResultSet => ({
    ...newResultSet(`2026-01-0${i}T00:00:00Z`, [
      { id: `bench-${i}`, status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: [0.0011 * i, 0.0012, 0.00105] } } },
    ]),
    commit,
    testbed: { id: 'bed' },
  });
  const validate = (data: unknown, file: string): ResultSet => validateResultSet(data, file);
  const runFile = { path: 'bed/2026/01/run.json.gz', text: encodeRun(run('a'.repeat(40), 1)).toString('latin1') };
  const lines = [1, 2, 3].map((i) => ({ commit: String(i).repeat(40), runId: `2026010${i}T000000Z-aaaa`, json: runLine(run(String(i).repeat(40), i)) }));
  const monthFile = { path: 'bed/2026/01/month.jsonl.br', text: encodeMonth({ testbed: 'bed', month: '2026-01' }, lines).toString('latin1') };
  return [
    { name: 'history run file', seeds: [runFile], run: (text, path) => plainOutcome(path, () => decodeRun(Buffer.from(text, 'latin1'), path, validate)) },
    { name: 'history month file', seeds: [monthFile], run: (text, path) => plainOutcome(path, () => decodeMonth(Buffer.from(text, 'latin1'), path, validate)) },
  ];
}

/** The meaning of a glob written the obvious way: a backtracking regular expression, the reference on short inputs. */
export function globReference(glob: string): RegExp {
  const body = [...glob].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${body}$`, 's');
}

/**
 * Budget globs against benchmark ids (hardening round two): the text is a
 * glob, a newline, and an id, seeded with the hostile id that made the old
 * regular expressions backtrack for minutes. The matcher must agree with the
 * plain regular-expression reading where that is safe to run (short inputs)
 * and answer within the hang bound whatever the input.
 */
export function globTarget(): FuzzTarget {
  const seeds = [
    `*/*[n=*]\n${'/[n='.repeat(2000)}`,
    `*a*b*c*d*e*f*\n${'ab'.repeat(3000)}`,
    'scan/*[n=?]\nscan/sweep[n=1]',
    '*migrationThroughput[entityCount=800]\na/b.migrationThroughput[entityCount=800]',
    `?*?*?*?*\n${'x'.repeat(4096)}`,
  ].map((text) => ({ path: 'glob', text }));
  return {
    name: 'glob',
    seeds,
    run(text) {
      const cut = text.indexOf('\n');
      const glob = cut === -1 ? text : text.slice(0, cut);
      const id = cut === -1 ? '' : text.slice(cut + 1);
      try {
        const matched = compileGlob(glob).test(id);
        if (glob.length <= 12 && id.length <= 24 && matched !== globReference(glob).test(id))
          return { kind: 'crash', why: `${JSON.stringify(glob)} on ${JSON.stringify(id)}: ${matched}, the regular expression says ${!matched}` };
        return { kind: 'parsed' };
      } catch (error) {
        return { kind: 'crash', why: `threw ${String(error)}` };
      }
    },
  };
}

/** Every target, in a fixed order: the adapters, detection, budgets, perf-gate.yml, quantities, history files, globs. */
export function allTargets(): FuzzTarget[] {
  return [...adapterTargets(), autoDetectTarget(), budgetsTarget(), configTarget(), quantityTarget(), ...historyFileTargets(), globTarget()];
}

/** A failing input: what the property found. */
export interface Finding {
  target: string;
  seed: string;
  steps: string[];
  why: string;
  text: string;
}

/** Longest time one input of a fixture's size may take before it counts as a hang (a parse is milliseconds; CI may be loaded). */
export const PER_INPUT_MS = 2000;
/** The same for a 10 MB input: linear parsers take up to a second here (the XML validator); a quadratic one takes hours. */
export const PER_HUGE_INPUT_MS = 5000;

/**
 * Runs one input and says what is wrong with its outcome, or null: a crash,
 * or a parse slower than `boundMs`.
 */
export function judge(target: FuzzTarget, text: string, path: string, boundMs = PER_INPUT_MS): string | null {
  const started = performance.now();
  const outcome = target.run(text, path);
  const ms = performance.now() - started;
  if (outcome.kind === 'crash') return outcome.why;
  if (ms > boundMs) return `took ${ms.toFixed(0)} ms (bound ${boundMs} ms)`;
  return null;
}

/** The fuzz property over one target, with a fixed seed; a failure names the seed file and the mutation steps. */
export function assertSurvives(target: FuzzTarget, runs: number, seed: number): void {
  const input = fc.nat({ max: target.seeds.length - 1 }).chain((i) => mutated(target.seeds[i]!.text).map((m) => ({ seed: target.seeds[i]!, m })));
  fc.assert(
    fc.property(input, ({ seed: s, m }) => {
      const why = judge(target, m.text, s.path);
      assert.equal(why, null, `${target.name} on ${s.path} after ${m.steps.join('; ')}: ${why}`);
    }),
    { numRuns: runs, seed },
  );
}
