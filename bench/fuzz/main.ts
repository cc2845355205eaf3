/**
 * `npm run fuzz`: the fuzz properties of `npm test` (action/test/adapters/
 * fuzz.test.ts and its neighbours), run for a fixed time per target with
 * fresh seeds, each target in a worker thread under a watchdog: an input
 * that takes longer than --hang-seconds is a hang, and the worker is
 * stopped. Prints one row per target (executions, findings) and writes each
 * finding's input under --out, to become a regression test.
 *
 *   npx tsx bench/fuzz/main.ts [--seconds 10] [--hang-seconds 10] [--seed N] [--only SUBSTRING] [--out DIR]
 *
 * Exits 1 when anything was found. Coverage-guided fuzzing (@jazzer.js/core)
 * was the first choice: it installs, but its prebuilt libFuzzer module needs
 * glibc 2.38 and Debian 12 has 2.36, and building it (cmake-js) fetches
 * Node's headers from outside the package registries (docs/reliability.md).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { allTargets } from '../../action/test/support/fuzz-targets.js';
import { positiveWholeFlag } from '../args.js';
import type { WorkerJob, WorkerMessage } from './worker.js';

const SECONDS = positiveWholeFlag('seconds', 10);
const HANG_SECONDS = positiveWholeFlag('hang-seconds', 10);
const SEED = positiveWholeFlag('seed', Date.now() % 1_000_000);
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1]! : '';
const OUT = process.argv.includes('--out') ? process.argv[process.argv.indexOf('--out') + 1]! : 'fuzz-findings';

interface Row {
  target: string;
  seeds: number;
  executions: number;
  findings: { why: string; seedFile: string; steps: string[]; text: string }[];
}

function runTarget(name: string, seed: number): Promise<Row> {
  return new Promise((resolve, reject) => {
    const job: WorkerJob = { target: name, seconds: SECONDS, seed };
    const worker = new Worker(new URL('./worker-entry.mjs', import.meta.url), { workerData: job });
    const row: Row = { target: name, seeds: 0, executions: 0, findings: [] };
    let last: Extract<WorkerMessage, { kind: 'input' }> | undefined;
    let heard = performance.now();
    const watchdog = setInterval(() => {
      if (performance.now() - heard < HANG_SECONDS * 1000) return;
      clearInterval(watchdog);
      row.findings.push({ why: `hang: no answer in ${HANG_SECONDS} s`, seedFile: last?.seedFile ?? '?', steps: last?.steps ?? [], text: '' });
      row.executions = last?.executions ?? 0;
      void worker.terminate().then(() => resolve(row));
    }, 500);
    worker.on('message', (m: WorkerMessage) => {
      heard = performance.now();
      if (m.kind === 'input') last = m;
      else if (m.kind === 'finding') row.findings.push(m);
      else {
        row.executions = m.executions;
        row.seeds = m.seeds;
      }
    });
    worker.on('error', (error) => {
      clearInterval(watchdog);
      reject(error);
    });
    worker.on('exit', () => {
      clearInterval(watchdog);
      resolve(row);
    });
  });
}

async function main(): Promise<void> {
  const targets = allTargets().filter((t) => t.name.includes(only));
  const started = performance.now();
  const rows: Row[] = [];
  for (const [i, t] of targets.entries()) {
    const row = await runTarget(t.name, SEED + i * 1_000_003);
    row.seeds ||= t.seeds.length;
    rows.push(row);
    process.stderr.write(`${row.target}: ${row.executions} inputs, ${row.findings.length} finding(s)\n`);
  }
  const total = rows.reduce((n, r) => n + r.executions, 0);
  const found = rows.flatMap((r) => r.findings.map((f) => ({ target: r.target, ...f })));
  console.log(
    `Fuzzing: ${targets.length} targets × ${SECONDS} s, seed ${SEED}, ${total.toLocaleString('en')} inputs in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  console.log(`(${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, load average ${loadavg()[0]!.toFixed(1)} at the end, Node ${process.version})\n`);
  console.log('| target | seed files | inputs | findings |\n| --- | ---: | ---: | ---: |');
  for (const r of rows) console.log(`| ${r.target} | ${r.seeds} | ${r.executions.toLocaleString('en')} | ${r.findings.length} |`);
  if (found.length === 0) return;
  mkdirSync(OUT, { recursive: true });
  console.log(`\nFindings (inputs written to ${OUT}/):`);
  found.forEach((f, i) => {
    const file = join(OUT, `${String(i + 1).padStart(3, '0')}-${f.target.replace(/\W+/g, '-')}.txt`);
    writeFileSync(file, f.text);
    console.log(`- ${f.target}: ${f.why}\n  from ${f.seedFile} after ${f.steps.join('; ')} → ${file}`);
  });
  process.exitCode = 1;
}

await main();
