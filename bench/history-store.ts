/**
 * Storage benchmark of the history store (docs/history.md): a synthetic
 * history of N commits, one run each, of B benchmarks × M metrics × S samples.
 * Builds the project's commit graph and the data branch with `git fast-import`
 * (one data-branch commit per run, as appends make them), writes the same
 * runs to a folder store, compacts both through the store's API, and reports:
 *
 * - size on disk (folder store) and in the git branch (`git count-objects -vH`
 *   after `git gc`), and the bytes of the branch's tip tree;
 * - time to select the baseline of a pull request (fetch of the data branch,
 *   then list + select + read + pool, in-process);
 * - time to append one run, git push to a local bare remote included.
 *
 *   npx tsx bench/history-store.ts [--commits 10000] [--benchmarks 200] [--metrics 2] [--samples 10] [--per-day 30] [--keep]
 *
 * Prints a Markdown table. At full size it needs a few GB of temporary disk
 * and several minutes; run it on a quiet machine.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { validateResultSet } from '../action/src/adapters/result-set.js';
import { newResultSet, type ResultSet } from '../action/src/model/index.js';
import { encodeRun, folderHistory, gitBranchHistory, newRunId, runPath, selectBaseline } from '../action/src/store/history/index.js';
import { seededRandom } from '../action/src/stats/prng.js';
import { positiveWholeFlag as flag } from './args.js';

const COMMITS = flag('commits', 10_000);
const BENCHMARKS = flag('benchmarks', 200);
const METRICS = flag('metrics', 2);
const SAMPLES = flag('samples', 10);
const PER_DAY = flag('per-day', 30);
const KEEP = process.argv.includes('--keep');
/** The last few main commits have no run, so selection walks back this far. */
const UNMEASURED_TIP = 3;
const TESTBED = 'bench-bed';

/** Deterministic pseudo-random numbers from the project's seeded generator, so a run can be replayed. */
function rng(seed: number): () => number {
  const random = seededRandom(seed);
  return () => random.next();
}

const validate = (data: unknown, file: string): ResultSet => validateResultSet(data, file);
const git = (cwd: string, args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 }).trim();

/** A run as a harness would give it: times to the nanosecond, memory in whole bytes. */
function syntheticRun(commit: string, created: Date, seed: number): ResultSet {
  const random = rng(seed);
  const benchmarks = Array.from({ length: BENCHMARKS }, (_, b) => {
    const metrics: ResultSet['benchmarks'][number]['metrics'] = {};
    for (let m = 0; m < METRICS; m++) {
      const time = m % 2 === 0;
      const level = time ? 1e-4 * (1 + (b % 97)) : 1024 * (1 + (b % 61));
      const samples = Array.from({ length: SAMPLES }, () => {
        const x = level * (1 + 0.03 * (random() - 0.5));
        return time ? Math.round(x * 1e9) / 1e9 : Math.round(x);
      });
      metrics[time ? (m === 0 ? 'time' : `time${m}`) : `memory${m}`] = { unit: time ? 's' : 'B', direction: 'lower', samples };
    }
    return { id: `suite/bench-${b}`, status: 'ok' as const, metrics };
  });
  return { ...newResultSet(created.toISOString(), benchmarks), commit, testbed: { id: TESTBED } };
}

/** Feeds a fast-import stream, waiting for the pipe to drain. */
async function fastImport(cwd: string, produce: (write: (chunk: string | Buffer) => Promise<void>) => Promise<void>): Promise<void> {
  const child = spawn('git', ['fast-import', '--quiet', '--done'], { cwd, stdio: ['pipe', 'inherit', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const write = (chunk: string | Buffer): Promise<void> =>
    child.stdin.write(chunk) ? Promise.resolve() : new Promise((r) => child.stdin.once('drain', () => r()));
  await produce(write);
  await write('done\n');
  child.stdin.end();
  if ((await exited) !== 0) throw new Error('git fast-import failed');
}

function folderBytes(dir: string): { apparent: number; disk: number; files: number } {
  let apparent = 0;
  let disk = 0;
  let files = 0;
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const s = statSync(join(dir, name));
    if (!s.isFile()) continue;
    apparent += s.size;
    disk += s.blocks * 512;
    files++;
  }
  return { apparent, disk, files };
}

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
const ms = (t: number): string => `${t.toFixed(0)} ms`;
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'perf-gate-bench-history-'));
  const rows: [string, string][] = [];
  try {
    // 1. The project: COMMITS first-parent commits on main, PER_DAY a day, ending now; a pull request on top.
    const project = join(root, 'project');
    mkdirSync(project);
    git(project, ['init', '--quiet', '-b', 'main']);
    const end = Math.floor(Date.now() / 1000) - 3600;
    const step = Math.floor(86_400 / PER_DAY);
    const dateOf = (i: number): number => end - (COMMITS - 1 - i) * step;
    let t0 = performance.now();
    await fastImport(project, async (write) => {
      for (let i = 0; i < COMMITS; i++) {
        const msg = `c${i}\n`;
        await write(`commit refs/heads/main\ncommitter t <t@t> ${dateOf(i)} +0000\ndata ${Buffer.byteLength(msg)}\n${msg}\n`);
      }
    });
    const shas = git(project, ['rev-list', '--reverse', 'main']).split('\n');
    git(project, ['branch', 'pr', 'main']);
    rows.push(['project commits (fast-import)', `${COMMITS} in ${ms(performance.now() - t0)}`]);

    // 2. The runs: one per commit except the last few; built once, written to the folder and the branch.
    const measured = COMMITS - UNMEASURED_TIP;
    const runIdRandom = rng(42);
    const runs: { path: string; bytes: Buffer }[] = [];
    t0 = performance.now();
    for (let i = 0; i < measured; i++) {
      const created = new Date((dateOf(i) + 600) * 1000);
      const set = syntheticRun(shas[i]!, created, i);
      const runId = newRunId(created, () => Buffer.from(Array.from({ length: 6 }, () => Math.floor(runIdRandom() * 256))));
      runs.push({ path: runPath(TESTBED, shas[i]!, runId), bytes: encodeRun(set) });
    }
    rows.push([
      'runs generated and encoded (gzip, samples packed)',
      `${measured} in ${ms(performance.now() - t0)}, ${mib(runs.reduce((a, r) => a + r.bytes.length, 0))} in total`,
    ]);

    // 3. Folder store: the single-run files, then compaction of every month before the current one.
    const folder = join(root, 'folder');
    for (const r of runs) {
      mkdirSync(dirname(join(folder, r.path)), { recursive: true });
      writeFileSync(join(folder, r.path), r.bytes);
    }
    t0 = performance.now();
    const folderStore = folderHistory(folder, validate);
    const compactedFolder = await folderStore.compact({ before: new Date() });
    rows.push(['folder: compaction', `${compactedFolder.length} months in ${ms(performance.now() - t0)}`]);
    const f = folderBytes(folder);
    rows.push(['folder: size on disk', `${mib(f.disk)} (${mib(f.apparent)} apparent, ${f.files} files)`]);

    // 4. Data branch in a bare remote: one commit per run, then compaction through the store (one commit per month).
    const remote = join(root, 'remote.git');
    mkdirSync(remote);
    git(remote, ['init', '--quiet', '--bare']);
    t0 = performance.now();
    await fastImport(remote, async (write) => {
      for (const [i, r] of runs.entries()) {
        const msg = `perf-gate: add run ${i}\n`;
        await write(
          `commit refs/heads/perf-gate-data\ncommitter perf-gate <perf-gate@localhost> ${dateOf(i) + 600} +0000\ndata ${Buffer.byteLength(msg)}\n${msg}M 100644 inline ${r.path}\ndata ${r.bytes.length}\n`,
        );
        await write(r.bytes);
        await write('\n');
      }
    });
    rows.push(['branch: one commit per run (fast-import)', ms(performance.now() - t0)]);
    git(project, ['remote', 'add', 'data', remote]);
    t0 = performance.now();
    const compactedBranch = await gitBranchHistory({ repo: project, remote: 'data' }, validate).compact({ before: new Date() });
    rows.push(['branch: compaction', `${compactedBranch.length} months (one commit each) in ${ms(performance.now() - t0)}`]);
    git(remote, ['gc', '--quiet', '--prune=now']);
    const objects = Object.fromEntries(
      git(remote, ['count-objects', '-vH'])
        .split('\n')
        .map((l) => l.split(': ') as [string, string]),
    );
    rows.push(['branch: size after gc (count-objects size-pack)', `${objects['size-pack']} (whole branch history)`]);
    const tipBytes = git(remote, ['ls-tree', '-r', '-l', 'perf-gate-data'])
      .split('\n')
      .reduce((a, l) => a + Number(l.split(/\s+/)[3]), 0);
    rows.push(['branch: bytes in the tip tree', mib(tipBytes)]);

    // 5. Selecting a pull request's baseline: a fresh reader fetches the branch (depth 1), then lists, selects, reads and pools.
    const reader = join(root, 'reader');
    execFileSync('git', ['clone', '--quiet', '--no-local', '--single-branch', '--branch', 'pr', project, reader]);
    git(reader, ['remote', 'add', 'data', remote]);
    const readerStore = gitBranchHistory({ repo: reader, remote: 'data', depth: 1, readOnly: true }, validate);
    t0 = performance.now();
    await readerStore.list({ testbed: 'nothing-here' });
    rows.push(['select: first fetch of the branch (depth 1)', ms(performance.now() - t0)]);
    // Five selections: the first pays for compiling the schema validator and warming up; a shared machine's stalls hit any one of them.
    const selectMs: number[] = [];
    let choice!: Awaited<ReturnType<typeof selectBaseline>>;
    for (let i = 0; i < 5; i++) {
      t0 = performance.now();
      choice = await selectBaseline(readerStore, { repo: reader, testbed: TESTBED, head: 'HEAD', from: { mergeBaseWith: 'origin/pr' } });
      selectMs.push(performance.now() - t0);
    }
    if (!choice.found || choice.distance !== UNMEASURED_TIP) throw new Error(`selection went wrong: ${JSON.stringify(choice).slice(0, 300)}`);
    rows.push([
      'select: fetch (up to date) + list + select + read + pool',
      `${ms(selectMs[0]!)} the first time, median of 5 ${ms(median(selectMs))} (distance ${choice.distance}, ${choice.pooled.set.benchmarks.length} benchmarks)`,
    ]);

    // 6. Appending one run, push included: a writer with the branch fetched once before (as every append fetches first).
    const writer = join(root, 'writer');
    mkdirSync(writer);
    git(writer, ['init', '--quiet']);
    git(writer, ['remote', 'add', 'origin', remote]);
    const writerStore = gitBranchHistory({ repo: writer, remote: 'origin', depth: 1 }, validate);
    t0 = performance.now();
    await writerStore.append(syntheticRun(shas.at(-1)!, new Date(), 1e6));
    rows.push(['append: one run, first fetch (depth 1) + commit + push', ms(performance.now() - t0)]);
    const appendMs: number[] = [];
    for (let i = 0; i < 5; i++) {
      t0 = performance.now();
      await writerStore.append(syntheticRun(shas.at(-2 - i)!, new Date(), 1e6 + 1 + i));
      appendMs.push(performance.now() - t0);
    }
    rows.push(['append: one run, fetch + commit + push', `median of 5 ${ms(median(appendMs))} (${appendMs.map((t) => t.toFixed(0)).join(', ')} ms)`]);
  } finally {
    if (KEEP) console.error(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
  console.log(`History store, ${COMMITS} commits × ${BENCHMARKS} benchmarks × ${METRICS} metrics × ${SAMPLES} samples, ${PER_DAY} commits a day`);
  console.log(
    `(${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, load average ${loadavg()[0]!.toFixed(1)} at the end, git ${git('.', ['--version']).replace('git version ', '')}, Node ${process.version})\n`,
  );
  console.log('| measure | result |\n| --- | --- |');
  for (const [k, v] of rows) console.log(`| ${k} | ${v} |`);
}

await main();
