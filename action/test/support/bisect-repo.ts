import { writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../../src/stats/prng.js';
import { gitSync, workRepo } from './history.js';
import { tempDir } from './temp.js';

/**
 * A real git repository for `perf-gate bisect`: a tiny C program whose work
 * (how long it naps, in µs) is read from work.txt by the suite's build step,
 * a start commit tagged `good`, then `commits` commits on main, one of which
 * (chosen by a seeded generator) multiplies the work. The others only touch
 * notes.txt.
 *
 * Why the program times itself (marker lines) instead of hyperfine: on the
 * shared 2-core VM one hyperfine invocation of a 3 ms program took 470 ms
 * (load average 7), and an A/B round is two invocations; a bisect of 30
 * commits would take minutes. Why a nap rather than a busy loop: CPU
 * contention stretches a busy loop by tens of percent from one run to the
 * next, while a nap's length barely moves, so a 4× planted change stays a
 * 4× change on a loaded machine.
 */
export interface PlantedRepo {
  dir: string;
  good: string;
  bad: string;
  /** Commits of good..bad, oldest first. */
  path: string[];
  /** The commit that changed the work, or null for an A/A range. */
  planted: string | null;
  /** Its position along the path (1-based), or null. */
  plantedIndex: number | null;
}

const NAP_C = `#include <stdio.h>
#include <time.h>
/* Naps NAP_US microseconds five times and prints each nap's length. */
static double now_ms(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
int main(void) {
  for (int i = 0; i < 5; i++) {
    struct timespec nap = { 0, NAP_US * 1000L };
    double start = now_ms();
    nanosleep(&nap, 0);
    printf("NAP_MS: %.4f\\n", now_ms() - start);
  }
  return 0;
}
`;

export const BISECT_CONFIG = `version: 1
ab:
  rounds: 8
  step: 4
  max-rounds: 16
  confirm: false
  seed: 5
suites:
  - name: nap
    build: cc -O2 -DNAP_US=$(cat work.txt) -o nap nap.c
    run: ./nap
    timeout: 1m
    format:
      name: marker-lines
      benchmark: nap
      markers:
        - { pattern: 'NAP_MS: (\\S+)', metric: time, unit: ms }
`;

/** The benchmark id the suite above reports. */
export const NAP_BENCHMARK = 'nap/nap';

/** Base work, and the planted commit's work (4×). */
const WORK_US = 1000;
const PLANTED_US = 4000;

/** Builds the repository; `seed` chooses the planted commit, `plant: false` makes an A/A range. */
export function plantedRepo(options: { seed: number; commits?: number; plant?: boolean }): PlantedRepo {
  const commits = options.commits ?? 30;
  const dir = workRepo(tempDir('pg-bisect-repo-'));
  const plantedIndex = options.plant === false ? null : 1 + seededRandom(options.seed).int(commits);
  writeFileSync(join(dir, 'perf-gate.yml'), BISECT_CONFIG);
  writeFileSync(join(dir, '.gitignore'), 'nap\nperf-gate-bisect/\n*.json\n*.md\n');
  writeFileSync(join(dir, 'nap.c'), NAP_C);
  writeFileSync(join(dir, 'work.txt'), `${WORK_US}\n`);
  writeFileSync(join(dir, 'notes.txt'), 'notes\n');
  gitSync(dir, ['add', '.']);
  gitSync(dir, ['commit', '--quiet', '-m', 'start']);
  gitSync(dir, ['tag', 'good']);
  const good = gitSync(dir, ['rev-parse', 'HEAD']);
  const path: string[] = [];
  let planted: string | null = null;
  for (let i = 1; i <= commits; i++) {
    if (i === plantedIndex) writeFileSync(join(dir, 'work.txt'), `${PLANTED_US}\n`);
    else appendFileSync(join(dir, 'notes.txt'), `note ${i}\n`);
    gitSync(dir, ['commit', '--quiet', '-am', i === plantedIndex ? `commit ${i}: retune the work` : `commit ${i}: notes`]);
    path.push(gitSync(dir, ['rev-parse', 'HEAD']));
    if (i === plantedIndex) planted = path[path.length - 1]!;
  }
  return { dir, good, bad: path[path.length - 1]!, path, planted, plantedIndex };
}
