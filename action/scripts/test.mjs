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
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

const reporter = new URL('./file-times-reporter.mjs', import.meta.url).pathname;
const times = mkdtempSync(join(tmpdir(), 'perf-gate-test-times-'));

/** Runs one pass; returns its exit status, wall time and the reporter's figures. */
function runPass(name, list, concurrency) {
  if (list.length === 0) return { status: 0, wall: 0, seconds: {}, passed: 0, failed: 0 };
  const out = join(times, `${name}.json`);
  const started = performance.now();
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      `--test-concurrency=${concurrency}`,
      '--test-reporter=tap',
      '--test-reporter-destination=stdout',
      `--test-reporter=${reporter}`,
      `--test-reporter-destination=${out}`,
      ...list,
    ],
    { stdio: 'inherit' },
  );
  const wall = (performance.now() - started) / 1000;
  let figures = { seconds: {}, passed: 0, failed: 0 };
  try {
    figures = JSON.parse(readFileSync(out, 'utf8'));
  } catch {
    // The runner died before the reporter wrote: the exit status says so.
  }
  return { status: result.status ?? 1, wall, ...figures };
}

// The action as `uses:` runs it, built once from the current sources for every test file that runs it
// (test/support/action-runner/bundle.ts copies it): a build is a second or two, and seventeen files need one.
if (files.some((f) => readFileSync(f, 'utf8').includes('bundleAction('))) {
  const bundle = join(times, 'action');
  const source = join(root, 'support', 'action-runner', 'bundle.ts');
  const built = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', `import { bundleAction } from ${JSON.stringify(source)}; await bundleAction(${JSON.stringify(bundle)});`],
    { stdio: 'inherit', env: { ...process.env, PERF_GATE_TEST_ACTION_BUNDLE: '' } },
  );
  // A failed build leaves each file to build its own, and to say why.
  if (built.status === 0) process.env.PERF_GATE_TEST_ACTION_BUNDLE = join(bundle, 'action', 'dist', 'cli.js');
}

const timing = files.filter((f) => f.endsWith('.timing.test.ts'));
const ordinary = files.filter((f) => !f.endsWith('.timing.test.ts'));
const first = runPass('ordinary', ordinary, process.env.PERF_GATE_TEST_CONCURRENCY ?? '2');
const second = runPass('timing', timing, '1');

// The slowest files, so a suite that grows too slow for CI's time is seen where it grows
// (PERF_GATE_TEST_SLOWEST=200 lists them all).
const slowest = Object.entries({ ...first.seconds, ...second.seconds })
  .sort((a, b) => b[1] - a[1])
  .slice(0, Number(process.env.PERF_GATE_TEST_SLOWEST ?? 12));
console.log(
  `\nslowest test files (seconds of their top-level tests; passes: ordinary ${first.wall.toFixed(0)} s wall at concurrency ${process.env.PERF_GATE_TEST_CONCURRENCY ?? '2'}, timing ${second.wall.toFixed(0)} s):`,
);
for (const [file, seconds] of slowest) console.log(`  ${seconds.toFixed(1).padStart(7)}  ${relative(root, file)}`);
console.log(`${first.passed + second.passed} passed, ${first.failed + second.failed} failed`);
rmSync(times, { recursive: true, force: true });
process.exit(first.status !== 0 ? first.status : second.status);
