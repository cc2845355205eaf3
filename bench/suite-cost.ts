/**
 * What a pull request costs and catches on suites of realistic size
 * (`npm run bench:suite-cost`): a Go package of N benchmarks in one
 * `go test -bench . -count 10` suite, a history of main, then pull requests
 * that change nothing, slow one benchmark by 10 %, or slow two. Two designs
 * of the second stage, on the same history:
 *
 * - `whole`: every round runs the suite's whole run line (what perf-gate did
 *   before issue 36; here forced by `format: auto`, which reads the same
 *   output but names no harness perf-gate could narrow; the run line, and so
 *   the recorded environment, stays the same);
 * - `suspects`: every round runs only the suspects, once (`-count 1`).
 *
 * Prints per suite size, design and kind of pull request: the verdict, the
 * rows regressed, the runner time in main runs. Runs one thing at a time;
 * take the figures with nothing else running.
 *
 * Environment: SIZES (default "24,200"), TRIALS (pull requests of each kind
 * for the suspects design, default 3), WHOLE_TRIALS (for the whole design,
 * default 1), WHOLE_KINDS (how many of the three kinds the whole design runs,
 * default 3), HISTORY_RUNS (default 6), CAP (confirm-time-cap, default 10m),
 * KEEP (a folder that keeps each pull request's JSON report), KINDS (which
 * kinds of pull request, 0-based: "1,2" skips A/A; default all).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('../', import.meta.url).pathname;
const CLI = join(ROOT, 'action/dist/cli.js');
const SIZES = (process.env['SIZES'] ?? '24,200').split(',').map(Number);
const TRIALS = Number(process.env['TRIALS'] ?? 3);
const WHOLE_TRIALS = Number(process.env['WHOLE_TRIALS'] ?? 1);
const HISTORY_RUNS = Number(process.env['HISTORY_RUNS'] ?? 6);
const CAP = process.env['CAP'] ?? '10m';
const WHOLE_KINDS = Number(process.env['WHOLE_KINDS'] ?? 3);
/** A folder to keep every pull request's JSON report in, to see why a row was caught or missed. */
const KEEP = process.env['KEEP'];
const DATED = { ...process.env, GIT_AUTHOR_DATE: '2026-11-20T12:00:00Z', GIT_COMMITTER_DATE: '2026-11-20T12:00:00Z' };

function git(repo: string, ...args: string[]): string {
  return execFileSync('git', ['-C', repo, '-c', 'user.name=bench', '-c', 'user.email=bench@perf-gate.invalid', ...args], {
    encoding: 'utf8',
    env: DATED,
  }).trim();
}

/** N benchmarks of one loop each; `slow` multiplies the work of those named (1-based). */
function goSource(n: number, slow: Record<number, number> = {}): string {
  const name = (i: number) => `W${String(i).padStart(3, '0')}`;
  const bench = (i: number) =>
    `func Benchmark${name(i)}(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t\tsink += work(${Math.round(20_000 * (slow[i] ?? 1))})\n\t}\n}\n`;
  return [
    'package wide\n\nimport "testing"\n\nvar sink uint64\n',
    'func work(n int) uint64 {\n\tx := uint64(1)\n\tfor i := 0; i < n; i++ {\n\t\tx = x*6364136223846793005 + 1442695040888963407\n\t}\n\treturn x\n}\n',
    ...Array.from({ length: n }, (_, i) => bench(i + 1)),
  ].join('\n');
}

function config(whole: boolean): string {
  const run = "go test -run '^$' -bench . -benchtime 500x -count 10";
  return `version: 1\nhistory: history\nconfirm-time-cap: ${CAP}\nsuites:\n  - name: go\n    run: ${run}\n    format: ${whole ? 'auto' : 'go-bench'}\n    timeout: 30m\n`;
}

interface Outcome {
  seconds: number;
  verdict: string;
  regressed: string[];
  suspects: number;
  capped: boolean;
}

function perfGate(repo: string, args: string[]): Outcome {
  const json = join(repo, '..', 'report.json');
  rmSync(json, { force: true });
  const t0 = performance.now();
  spawnSync('node', [CLI, 'run', '--json', json, '--out', join(repo, '..', 'out'), ...args], { cwd: repo, encoding: 'utf8', env: process.env });
  const seconds = (performance.now() - t0) / 1000;
  try {
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      verdict: string;
      rows: { benchmark: string; metric: string; status: string; stage?: { unconfirmed?: { code: string } } }[];
      stages?: { screen: { suspects: number }; confirm: { skipped: { code: string } | null } };
    };
    return {
      seconds,
      verdict: report.verdict,
      regressed: report.rows.filter((r) => r.metric === 'time' && r.status === 'regressed').map((r) => r.benchmark.replace(/^go\/Benchmark/, '')),
      suspects: report.stages?.screen.suspects ?? 0,
      capped: report.stages?.confirm.skipped?.code === 'time-cap',
    };
  } catch {
    return { seconds, verdict: 'error', regressed: [], suspects: 0, capped: false };
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const ALL_KINDS: { kind: string; slow: Record<number, number>; expect: string[] }[] = [
  { kind: 'A/A', slow: {}, expect: [] },
  { kind: 'one slowed 10 %', slow: { 7: 1.1 }, expect: ['W007'] },
  { kind: 'two slowed 10 %', slow: { 3: 1.1, 15: 1.1 }, expect: ['W003', 'W015'] },
];
const KINDS = process.env['KINDS'] ? process.env['KINDS'].split(',').map((i) => ALL_KINDS[Number(i)]!) : ALL_KINDS;

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load average ${loadavg()[0]!.toFixed(2)} at the start`);
for (const size of SIZES) {
  const root = mkdtempSync(join(tmpdir(), `pg-suite-cost-${size}-`));
  const repo = join(root, 'repo');
  execFileSync('mkdir', ['-p', repo]);
  git(repo, 'init', '-q', '--initial-branch=main');
  writeFileSync(join(repo, 'go.mod'), 'module wide\n\ngo 1.21\n');
  writeFileSync(join(repo, 'w_test.go'), goSource(size));
  writeFileSync(join(repo, 'perf-gate.yml'), config(false));
  writeFileSync(join(repo, '.gitignore'), 'history/\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'main');
  const mains: number[] = [];
  for (let i = 0; i < HISTORY_RUNS; i++) mains.push(perfGate(repo, ['--mode', 'main']).seconds);
  const main = median(mains);
  console.log(`\n${size} benchmarks: a main run takes ${main.toFixed(1)} s (median of ${HISTORY_RUNS})`);
  console.log('design    pull request       verdict  regressed        suspects  runner time (main runs)');
  for (const design of ['suspects', 'whole'] as const) {
    for (const { kind, slow, expect } of design === 'whole' ? KINDS.slice(0, WHOLE_KINDS) : KINDS) {
      const trials = design === 'whole' ? WHOLE_TRIALS : TRIALS;
      for (let t = 0; t < trials; t++) {
        git(repo, 'checkout', '-q', '-B', `pr-${design}-${t}`, 'main');
        writeFileSync(join(repo, 'w_test.go'), goSource(size, slow));
        writeFileSync(join(repo, 'perf-gate.yml'), config(design === 'whole'));
        writeFileSync(join(repo, 'TRIAL'), `${design} ${kind} ${t}\n`);
        git(repo, 'add', '.');
        git(repo, 'commit', '-q', '-m', `${design} ${kind} ${t}`);
        const o = perfGate(repo, []);
        if (KEEP) cpSync(join(root, 'report.json'), join(KEEP, `${size}-${design}-${kind.replace(/[^a-z0-9]+/gi, '-')}-${t}.json`));
        const caught = expect.every((e) => o.regressed.includes(e)) && o.regressed.every((r) => expect.includes(r));
        console.log(
          `${design.padEnd(9)} ${kind.padEnd(18)} ${o.verdict.padEnd(8)} ${(o.regressed.join(',') || '-').padEnd(16)} ${String(o.suspects).padEnd(9)} ${(o.seconds / main).toFixed(2)}${o.capped ? ' (capped)' : ''}${expect.length > 0 ? (caught ? ' caught' : ' MISSED') : o.verdict === 'fail' ? ' FALSE ALARM' : ''}`,
        );
      }
    }
  }
  git(repo, 'checkout', '-q', 'main');
  rmSync(root, { recursive: true, force: true });
}
