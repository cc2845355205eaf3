// Runs every test file under action/test with Node's own test runner.
// Node 20 has no glob support in `--test`, so the files are listed here.
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
const concurrency = process.env.PERF_GATE_TEST_CONCURRENCY ?? '2';
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
