import { createHash } from 'node:crypto';
import { InputError, type BenchmarkResult, type Metric, type Testbed } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';
import { isRecord, jsonErrors, parseJsonText, type JsonErrors } from './json-text.js';

/**
 * pyperf JSON (`python bench.py -o results.json`, `pyperf timeit -o`,
 * pyperformance's files): `{"version": "1.0", "metadata": {…}, "benchmarks":
 * [{"metadata": {"name": …}, "runs": [{"values": […], "warmups": [[loops,
 * value] …], "metadata": {…}}]}]}`. File format version "1.0" (pyperf 1.0 and
 * later) and 6 (perf 0.9.6, the same layout) are read; version 5 and older
 * (`samples`, raw warmups) are refused with the command that converts them.
 *
 * The samples are every run's `values`, run by run in file order: pyperf
 * stores them already divided by loops × inner_loops, so they are per-call
 * values. Warmups and calibration runs (a run with warmups and no values)
 * are left out, as pyperf's own `stats` and `compare_to` leave them out.
 * Metadata is merged the way pyperf merges it (suite, then benchmark, then
 * run); `unit` decides the metric: `second` (the default) → `time` s ↓,
 * `byte` (`--track-memory`, `--tracemalloc`) → `memory_peak` B ↓, `integer`
 * → `value`, whose direction the file does not say.
 *
 * The settings pyperf measured with become the benchmark's params: `loops`
 * (with `inner_loops` when not 1), `warmups` and `values` per run, and
 * `runs`; a change of loops between baseline and head shows in the report.
 * The suite's machine metadata (CPU model and count, kernel, the tuning in
 * `cpu_config`: governor, turbo, isolated and nohz_full CPUs, and ASLR) is
 * the file's testbed (see `testbed` below).
 */
export const pyperfAdapter: Adapter = {
  name: 'pyperf',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 65536);
    if (!/^\s*\{/.test(head)) return { match: false, reason: 'not a JSON object' };
    if (!/"benchmarks"\s*:/.test(head)) return { match: false, reason: 'no "benchmarks" key near the start' };
    if (!/"runs"\s*:\s*\[/.test(head)) return { match: false, reason: 'no "runs" array near the start (pyperf keeps each worker process as a run)' };
    if (!/"version"\s*:\s*("1\.0"|\d)/.test(text)) return { match: false, reason: 'no pyperf file format "version"' };
    return { match: true };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    const suite = readSuite(text, path);
    return suite.data.benchmarks.map((bench, index) => readBenchmark(bench, index, suite.metadata, suite.errors));
  },

  testbed({ text, path }: AdapterInput): Testbed | undefined {
    return testbedOf(readSuite(text, path).metadata);
  },
};

interface Suite {
  data: { benchmarks: unknown[] };
  metadata: Record<string, unknown>;
  errors: JsonErrors;
}

function readSuite(text: string, path: string): Suite {
  const data = parseJsonText(text, path, 'pyperf JSON ({"version": "1.0", "benchmarks": [...]})');
  if (!isRecord(data)) throw new InputError(path, 'expected a JSON object with "version" and "benchmarks" (pyperf -o results.json)', 1);
  const errors = jsonErrors(text, path);
  if (data.version !== '1.0' && data.version !== 6) {
    const old = typeof data.version === 'number' && data.version < 6;
    throw errors.error(
      ['version'],
      old
        ? `pyperf file format version ${data.version} (perf 0.8 or older) is not read; convert it first: python3 -m pyperf convert --indent ${JSON.stringify(path)} -o new.json`
        : `expected pyperf file format version "1.0", found ${JSON.stringify(data.version)}`,
    );
  }
  if (!Array.isArray(data.benchmarks) || data.benchmarks.length === 0) {
    throw errors.error(['benchmarks'], 'expected a non-empty "benchmarks" array (pyperf refuses to write a file without a benchmark: was the file cut short?)');
  }
  if (data.metadata !== undefined && !isRecord(data.metadata)) throw errors.error(['metadata'], 'expected "metadata" to be an object');
  return { data: { benchmarks: data.benchmarks }, metadata: (data.metadata as Record<string, unknown> | undefined) ?? {}, errors };
}

/** The metric each pyperf unit becomes: name, base unit, and whether the file says which way is better. */
const UNITS: Record<string, { name: string; unit: string; known: boolean }> = {
  second: { name: 'time', unit: 's', known: true },
  byte: { name: 'memory_peak', unit: 'B', known: true },
  integer: { name: 'value', unit: 'count', known: false },
};

function readBenchmark(bench: unknown, index: number, suiteMetadata: Record<string, unknown>, errors: JsonErrors): BenchmarkResult {
  const at = ['benchmarks', index];
  if (!isRecord(bench)) throw errors.error(at, 'expected a benchmark object with "runs"');
  if (bench.metadata !== undefined && !isRecord(bench.metadata)) throw errors.error([...at, 'metadata'], 'expected "metadata" to be an object');
  const metadata = { ...suiteMetadata, ...((bench.metadata as Record<string, unknown> | undefined) ?? {}) };
  const name = metadata.name;
  if (typeof name !== 'string' || name === '') throw errors.error([...at, 'metadata'], 'expected the benchmark\'s "name" in its metadata');
  if (!Array.isArray(bench.runs) || bench.runs.length === 0) throw errors.error([...at, 'runs'], `expected a non-empty "runs" array for "${name}"`);

  const samples: number[] = [];
  const loops = new Set<string>();
  const warmups = new Set<number>();
  const perRun = new Set<number>();
  let unit: string | undefined;
  let runsWithValues = 0;
  bench.runs.forEach((run: unknown, r) => {
    const runAt = [...at, 'runs', r];
    if (!isRecord(run)) throw errors.error(runAt, 'expected a run object with "values" or "warmups"');
    if (run.metadata !== undefined && !isRecord(run.metadata)) throw errors.error([...runAt, 'metadata'], 'expected "metadata" to be an object');
    const merged = { ...metadata, ...((run.metadata as Record<string, unknown> | undefined) ?? {}) };
    const values = run.values ?? [];
    const runWarmups = run.warmups ?? [];
    if (!Array.isArray(values)) throw errors.error([...runAt, 'values'], `expected "values" to be an array of numbers for "${name}"`);
    if (!Array.isArray(runWarmups)) throw errors.error([...runAt, 'warmups'], `expected "warmups" to be an array of [loops, value] pairs for "${name}"`);
    runWarmups.forEach((pair, w) => {
      if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'number' || typeof pair[1] !== 'number') {
        throw errors.error([...runAt, 'warmups', w], 'expected a warmup as [loops, value]');
      }
    });
    values.forEach((v, i) => {
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
        throw errors.error([...runAt, 'values', i], `expected a non-negative number, found ${JSON.stringify(v)}`);
      }
    });
    if (values.length === 0) return; // a calibration run: warmups only
    const runUnit = typeof merged.unit === 'string' ? merged.unit : 'second';
    if (!(runUnit in UNITS)) throw errors.error([...runAt, 'metadata'], `expected "unit" to be second, byte or integer, found ${JSON.stringify(runUnit)}`);
    if (unit !== undefined && unit !== runUnit)
      throw errors.error([...runAt, 'metadata'], `run ${r + 1} of "${name}" is in ${runUnit}, the runs before it in ${unit}`);
    unit = runUnit;
    runsWithValues++;
    samples.push(...(values as number[]));
    const innerLoops = typeof merged.inner_loops === 'number' && merged.inner_loops !== 1 ? ` × ${merged.inner_loops}` : '';
    if (typeof merged.loops === 'number') loops.add(`${merged.loops}${innerLoops}`);
    warmups.add(runWarmups.length);
    perRun.add(values.length);
  });
  if (unit === undefined) {
    throw errors.error(
      [...at, 'runs'],
      `"${name}" has no run with values (only calibration runs): the benchmark did not finish; expected "values" in at least one run`,
    );
  }
  const kind = UNITS[unit]!;
  const metric: Metric = buildMetric(kind.name, kind.unit, { samples }, { sourceUnit: unit });
  if (!kind.known) metric.directionUnknown = true;
  const params: Record<string, string> = { runs: String(runsWithValues) };
  const only = (set: Set<unknown>): string => (set.size === 1 ? String([...set][0]) : 'varies');
  if (loops.size > 0) params.loops = only(loops);
  params.warmups = only(warmups);
  params.values = only(perRun);
  return { id: name, params, status: 'ok', metrics: { [kind.name]: metric } };
}

/** The entries of pyperf's `cpu_config` ("0-1=driver:intel_pstate, governor:performance; idle:intel_idle") as one list of words. */
function cpuConfigWords(config: unknown): string[] {
  if (typeof config !== 'string') return [];
  return config
    .split(/[;,]/)
    .map((part) => part.replace(/^\s*[\d,-]+=/, '').trim())
    .filter((part) => part !== '');
}

/**
 * The testbed pyperf recorded: the machine (CPU model and count, the
 * architecture and kernel from `platform`) and its tuning (`pyperf system
 * tune` sets the governor, turns turbo off, and the boot line isolates CPUs),
 * with an id hashed from what shifts timings, like perf-gate's own testbed:
 * model, count, architecture, governor, turbo, isolation. Undefined when the
 * file carries no machine metadata (pyperf run with --no-metadata… or
 * `pyperf convert --remove-all-metadata`).
 */
function testbedOf(metadata: Record<string, unknown>): Testbed | undefined {
  const cpu = typeof metadata.cpu_model_name === 'string' ? metadata.cpu_model_name : undefined;
  const cores = typeof metadata.cpu_count === 'number' ? metadata.cpu_count : undefined;
  if (cpu === undefined && cores === undefined) return undefined;
  const platform = typeof metadata.platform === 'string' ? metadata.platform : '';
  const kernel = /^Linux-([^-]+(?:-[^-]+)*?)-(x86_64|aarch64|arm64|ppc64le|s390x|riscv64)/.exec(platform);
  const arch = kernel?.[2] ?? /(x86_64|aarch64|arm64|AMD64|ppc64le|s390x|riscv64)/.exec(platform)?.[1];
  const words = cpuConfigWords(metadata.cpu_config);
  const governor = words.find((w) => w.startsWith('governor:'))?.slice('governor:'.length) ?? null;
  const turbo = words.includes('intel_pstate:turbo') ? true : words.includes('intel_pstate:no turbo') ? false : null;
  const isolated = words.includes('isolated');
  const nohzFull = words.includes('nohz_full');
  const identity = { cpu: cpu ?? null, cores: cores ?? null, arch: arch ?? null, governor, turbo, isolated, nohzFull };
  const id = `pyperf-${createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 12)}`;
  const testbed: Testbed = { id, source: 'pyperf metadata', governor, turbo, isolatedCpus: isolated, nohzFull };
  if (cpu !== undefined) testbed.cpu = cpu;
  if (cores !== undefined) testbed.cores = cores;
  if (arch !== undefined) testbed.arch = arch;
  if (kernel) testbed.kernel = kernel[1]!;
  if (typeof metadata.aslr === 'string') testbed.aslr = metadata.aslr;
  return testbed;
}
