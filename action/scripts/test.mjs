// Runs every test file under action/test with Node's own test runner.
// Node 20 has no glob support in `--test`, so the files are listed here.
//
// Two passes: first every ordinary test file (2 at a time), then the files
// named *.timing.test.ts one at a time. Those assert on measured speed (a
// 30 % slower program must be "regressed"), and on a 2-core machine another
// test file running beside them is load that no statistics can tell apart
// from a slower program.
//
// Usage: node action/scripts/test.mjs [substring-filter ...]
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('../test', import.meta.url).pathname;
const filters = process.argv.slice(2);

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'fixtures' || name === 'node_modules') return [];
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const files = walk(root)
  .filter((f) => f.endsWith('.test.ts'))
  .filter((f) => filters.length === 0 || filters.some((s) => relative(root, f).includes(s)))
  .sort();
if (files.length === 0) {
  console.error(`no test files matched ${filters.join(' ') || '(all)'}`);
  process.exit(1);
}

function runPass(list, concurrency) {
  if (list.length === 0) return 0;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...list], { stdio: 'inherit' });
  return result.status ?? 1;
}

const timing = files.filter((f) => f.endsWith('.timing.test.ts'));
const ordinary = files.filter((f) => !f.endsWith('.timing.test.ts'));
const first = runPass(ordinary, process.env.PERF_GATE_TEST_CONCURRENCY ?? '2');
const second = runPass(timing, '1');
process.exit(first !== 0 ? first : second);
