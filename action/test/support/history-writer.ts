/**
 * A writer process for the history store's concurrency and interruption
 * tests: appends `count` runs of one commit, printing each entry as a JSON
 * line once append returned, then exits 0; on any failure it prints the
 * error to stderr and exits 1.
 *
 *   tsx history-writer.ts '<json options>'
 *
 * Options: { kind: "folder", root } or { kind: "git", repo, remote },
 * commit, seed, count, maxAttempts?, ready? (a file written when started),
 * go? (a file to wait for before the first append, so writers race),
 * benchmarks? (per run).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { fakeCommit, openBranch, openFolder, sampleRun } from './history.js';

interface WriterOptions {
  kind: 'folder' | 'git';
  root?: string;
  repo?: string;
  remote?: string;
  writer: number;
  count: number;
  maxAttempts?: number;
  ready?: string;
  go?: string;
  /** Benchmarks per run (bigger runs take longer to write); default 3. */
  benchmarks?: number;
}

const options = JSON.parse(process.argv[2]!) as WriterOptions;
const store =
  options.kind === 'folder'
    ? openFolder(options.root!)
    : openBranch({ repo: options.repo!, remote: options.remote!, maxAttempts: options.maxAttempts ?? 10, backoffMs: 50 });

if (options.ready !== undefined) writeFileSync(options.ready, `${process.pid}\n`);
if (options.go !== undefined) {
  for (let i = 0; i < 6000 && !existsSync(options.go); i++) await new Promise((r) => setTimeout(r, 50));
}
try {
  for (let i = 0; i < options.count; i++) {
    const created = new Date(Date.UTC(2026, 10, 21, 12, options.writer % 60, i % 60)).toISOString();
    const entry = await store.append(sampleRun(fakeCommit(options.writer * 1000 + i), created, 'bed-a', options.writer * 1000 + i, options.benchmarks));
    process.stdout.write(`${JSON.stringify(entry)}\n`);
  }
  process.exit(0);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
