import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mannWhitney } from '../../src/stats/index.js';
import { testData } from './random-data.js';
import { requireTool } from '../support/tools.js';

requireTool('go', 'benchstat');

/** benchstat from `go install golang.org/x/perf/cmd/benchstat` (`npm run setup`: scripts/install/30-go.sh). */
function benchstatPath(): string {
  const gopath = spawnSync('go', ['env', 'GOPATH'], { encoding: 'utf8' });
  if (gopath.status !== 0) throw new Error('go is not installed: benchstat cannot be found');
  const path = join(gopath.stdout.trim(), 'bin', 'benchstat');
  if (!existsSync(path)) throw new Error(`benchstat is not installed (not at ${path}): run npm run setup`);
  return path;
}

describe('Mann–Whitney against benchstat', () => {
  test("benchstat's p-value (printed to 3 decimals) matches ours on 40 random Go benchmark comparisons", () => {
    const data = testData(71);
    const dir = mkdtempSync(join(tmpdir(), 'perf-gate-benchstat-'));
    try {
      const cases = Array.from({ length: 40 }, (_, i) => {
        // Sizes 4–60: exact (≤ 50, no ties) and normal-approximation regimes.
        const m = i % 8 === 0 ? data.int(51, 60) : data.int(4, 30);
        const n = i % 8 === 0 ? data.int(51, 60) : data.int(4, 30);
        const shift = 1 + 0.03 * data.rng.next();
        // Written with 6 decimals; parse back so both sides test the same numbers.
        const fmt = (v: number): number => Number((1000 * v).toFixed(6));
        return { name: `Case${i}`, old: data.times(m, 1, 0.03).map(fmt), new: data.times(n, shift, 0.03).map(fmt) };
      });
      for (const c of cases) assert.equal(new Set([...c.old, ...c.new]).size, c.old.length + c.new.length, 'no ties');
      const file = (side: 'old' | 'new'): string =>
        ['goos: linux', 'goarch: amd64', 'pkg: perfgate/test', '']
          .concat(cases.flatMap((c) => c[side].map((v) => `Benchmark${c.name}-2\t1000\t${v.toFixed(6)} ns/op`)))
          .join('\n') + '\n';
      writeFileSync(join(dir, 'old.txt'), file('old'));
      writeFileSync(join(dir, 'new.txt'), file('new'));
      const run = spawnSync(benchstatPath(), ['-format', 'csv', 'old.txt', 'new.txt'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
      assert.equal(run.status, 0, run.stderr);
      const pByName = new Map<string, number>();
      for (const line of run.stdout.split('\n')) {
        const m = /^(Case\d+)-2,.*p=([0-9.]+) n=/.exec(line);
        if (m) pByName.set(m[1]!, Number(m[2]));
      }
      assert.equal(pByName.size, cases.length, `benchstat printed ${pByName.size} rows:\n${run.stdout}`);
      let small = 0;
      for (const c of cases) {
        const ours = mannWhitney(c.new, c.old).p;
        const theirs = pByName.get(c.name)!;
        if (theirs < 0.05) small++;
        assert.ok(Math.abs(ours - theirs) <= 0.0005 + 1e-12, `${c.name} (${c.old.length}+${c.new.length}): ours ${ours}, benchstat ${theirs}`);
      }
      assert.ok(small >= 5 && small < cases.length, `the cases should mix significant and not (${small} significant)`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
