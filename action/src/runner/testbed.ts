import { createHash } from 'node:crypto';
import { sameTestbedIds, type Testbed } from '../model/index.js';
import { bootParams } from './preflight/boot-params.js';
import { readCpuModel } from './preflight/checks/cpu.js';
import { readGovernor } from './preflight/checks/governor.js';
import { readKernel } from './preflight/checks/kernel.js';
import { readSmt } from './preflight/checks/smt.js';
import { meminfoBytes } from './preflight/checks/swap.js';
import { readTurbo } from './preflight/checks/turbo.js';
import { onlineCpus } from './preflight/online-cpus.js';
import type { SystemFiles } from './preflight/system-files.js';

/**
 * The testbed: the machine and the settings a run was measured on, with a
 * stable id. The rule for what enters the id: whatever shifts timings
 * systematically must change it; whatever only varies from run to run, or
 * names a machine rather than describing it, must not.
 *
 * In the id (normalised first):
 * - CPU model: a different microarchitecture or clock is a different machine;
 * - online CPU count: parallel benchmarks scale with it, and a smaller VM
 *   flavour of the same CPU is a different testbed;
 * - architecture;
 * - the `mitigations=` boot parameter ("auto" when absent): mitigations change
 *   the cost of every system call;
 * - governor, turbo and SMT: each moves timings by several percent to 2×;
 * - memory size in whole GiB: a different memory size means a different
 *   machine type; MemTotal itself wobbles by a few MiB across boots, so it is
 *   rounded.
 * Left out: the runner's name (identical machines in a pool compare), load,
 * swap use, throttle counters and noise (per-run conditions, reported by
 * preflight instead), ASLR (changes the spread, not the level), frequency
 * readings (follow from model, governor and turbo), and the software a
 * routine upgrade changes: kernel, microcode and tool versions. Those are
 * the run's environment (runner/environment.ts): a kernel upgrade must not
 * give the runner a new id and leave every pull request without a baseline
 * until main has built a new history, so the report names the change
 * beside the verdict instead. (Recipe 1 put kernel major.minor in the id;
 * a run records its recipe-1 id as `formerId`, so the history recorded
 * before the upgrade to recipe 2 still provides baselines.)
 * Unreadable facts (a VM without cpufreq) are null, which is itself stable.
 */
export interface TestbedFacts {
  cpu: string | null;
  cores: number;
  arch: string | null;
  kernel: string | null;
  mitigations: string | null;
  governor: string | null;
  turbo: boolean | null;
  smt: boolean | null;
  /** MemTotal in bytes. */
  memory: number | null;
}

/** The version of the id recipe: changing what enters the id changes this, so old ids never collide with new ones. */
export const TESTBED_ID_VERSION = 'perf-gate/testbed@2';
const FORMER_ID_VERSION = 'perf-gate/testbed@1';

/** Reads the facts of the machine under `files`' root. */
export function readTestbedFacts(files: SystemFiles): TestbedFacts {
  const params = bootParams(files);
  const meminfo = files.read('/proc/meminfo');
  return {
    cpu: readCpuModel(files),
    cores: onlineCpus(files).length,
    arch: files.read('/proc/sys/kernel/arch') ?? null,
    kernel: readKernel(files),
    mitigations: params === undefined ? null : (params.get('mitigations') ?? 'auto'),
    governor: readGovernor(files),
    turbo: readTurbo(files).turbo,
    smt: readSmt(files),
    memory: meminfo === undefined ? null : (meminfoBytes(meminfo, 'MemTotal') ?? null),
  };
}

type IdPart = [string, string | number | boolean | null];

/** The normalised values that enter the id, in a fixed order. */
function idParts(facts: TestbedFacts): IdPart[] {
  return [
    ['cpu', facts.cpu === null ? null : facts.cpu.replace(/\s+/g, ' ').trim()],
    ['cores', facts.cores],
    ['arch', facts.arch],
    ['mitigations', facts.mitigations],
    ['governor', facts.governor],
    ['turbo', facts.turbo],
    ['smt', facts.smt],
    ['memoryGiB', facts.memory === null ? null : Math.round(facts.memory / 2 ** 30)],
  ];
}

function hashOf(version: string, parts: IdPart[]): string {
  return createHash('sha256')
    .update(JSON.stringify([version, ...parts]))
    .digest('hex')
    .slice(0, 16);
}

/** The stable id: the first 16 hex digits of the SHA-256 of the normalised facts. */
export function testbedId(facts: TestbedFacts): string {
  return hashOf(TESTBED_ID_VERSION, idParts(facts));
}

/** The id recipe 1 gave these facts (kernel major.minor after the architecture): where this machine's older runs are filed. */
export function formerTestbedId(facts: TestbedFacts): string {
  const kernel = facts.kernel === null ? null : (/^(\d+\.\d+)/.exec(facts.kernel)?.[1] ?? facts.kernel);
  const parts = idParts(facts);
  return hashOf(FORMER_ID_VERSION, [...parts.slice(0, 3), ['kernel', kernel], ...parts.slice(3)]);
}

/** The Testbed stored in a ResultSet: the id plus the readable facts (and the runner's name, outside the id). */
export function testbedFromFacts(facts: TestbedFacts, runner?: string): Testbed {
  const testbed: Testbed = {
    id: testbedId(facts),
    formerId: formerTestbedId(facts),
    cpu: facts.cpu ?? undefined,
    cores: facts.cores > 0 ? facts.cores : undefined,
    kernel: facts.kernel ?? undefined,
    governor: facts.governor,
    turbo: facts.turbo,
    smt: facts.smt,
    arch: facts.arch,
    mitigations: facts.mitigations,
    memory: facts.memory,
  };
  if (runner) testbed.runner = runner;
  return Object.fromEntries(Object.entries(testbed).filter(([, v]) => v !== undefined)) as Testbed;
}

/** Reads this machine's testbed (under `files`' root); `runner` is the runner's name, e.g. $RUNNER_NAME. */
export function readTestbed(files: SystemFiles, runner?: string): Testbed {
  return testbedFromFacts(readTestbedFacts(files), runner);
}

/**
 * Whether two ResultSets were measured on the same testbed: equal ids. A side
 * without a testbed (results converted from raw harness files) is unknown,
 * reported as not the same so the gate flags it rather than stay silent.
 */
export function sameTestbed(a: Testbed | undefined, b: Testbed | undefined): boolean {
  return sameTestbedIds(a, b);
}

const READABLE: Array<keyof TestbedFacts> = ['cpu', 'cores', 'arch', 'kernel', 'mitigations', 'governor', 'turbo', 'smt', 'memory'];

/**
 * What differs between two testbeds, one readable item per field, e.g.
 * `governor: "powersave" → "performance"`, for the different-testbed flag's
 * explanation. Empty when the ids are equal; when the ids differ but no
 * readable field does (different recipe versions), says so.
 */
export function testbedDifferences(a: Testbed | undefined, b: Testbed | undefined): string[] {
  if (a === undefined || b === undefined) {
    if (a === b) return ['neither side records its testbed'];
    return [`${a === undefined ? 'baseline' : 'current'} side records no testbed`];
  }
  if (sameTestbedIds(a, b)) return [];
  const show = (v: unknown): string => (v === undefined || v === null ? 'unknown' : typeof v === 'string' ? `"${v}"` : String(v));
  const diffs = READABLE.filter((k) => show(a[k]) !== show(b[k])).map((k) => `${k}: ${show(a[k])} → ${show(b[k])}`);
  return diffs.length > 0 ? diffs : [`testbed ids differ (${a.id} vs ${b.id})`];
}
