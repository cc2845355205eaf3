/**
 * Go's rounds without `go test`. Every `go test` call checks the build cache
 * and links the package's test binary before it runs a benchmark: 0.33 s
 * here, against 0.01 s for the compiled binary run directly, and a round pays
 * it once per side. Twenty rounds of one suspect then cost seconds of
 * linking for milliseconds of benchmark. So where the run line is one plain
 * `go test` of one package, each side compiles the test binary once, in the
 * second stage's build (`go test -c`), and every round runs that binary with
 * the run line's test flags in their `-test.` form, in the package's folder
 * (where `go test` runs it too).
 *
 * The binary lives in the side's own folder, `$PERF_GATE_BUILD_DIR`
 * (runner/invoke.ts sets it for the builds and rounds of each side), so the
 * two checkouts never share one. A run line this module does not fully
 * understand (several packages, `./...`, an import path, `-json`, a flag it
 * does not know) keeps `go test`: slower rounds, never different ones.
 *
 * Pure: a suite in, the suite its rounds run out.
 */
import { quote, split } from 'shlex';
import { isSimpleCommand } from '../model/index.js';
import type { SuiteConfig } from '../config/perf-gate-config.js';

/** `go test` flags that go to the test binary, as `-test.<name>`, with whether they take a value. */
const TEST_FLAGS: Record<string, 'value' | 'bool'> = {
  bench: 'value',
  benchtime: 'value',
  count: 'value',
  cpu: 'value',
  run: 'value',
  skip: 'value',
  timeout: 'value',
  shuffle: 'value',
  benchmem: 'bool',
  v: 'bool',
  short: 'bool',
  failfast: 'bool',
};

/** `go test` flags that shape the build, kept on `go test -c`. */
const BUILD_FLAGS: Record<string, 'value' | 'bool'> = {
  tags: 'value',
  gcflags: 'value',
  ldflags: 'value',
  asmflags: 'value',
  mod: 'value',
  race: 'bool',
  trimpath: 'bool',
};

/** Where each side's compiled test binary goes. */
const BINARY = '"$PERF_GATE_BUILD_DIR/go-bench.test"';

interface Flag {
  name: string;
  value: string | null;
}

/** The run line read as `go test [flags] [package]`, or null when it is anything else this module cannot repeat exactly. */
function parseGoTest(run: string): { test: Flag[]; build: Flag[]; pkg: string | null } | null {
  let words: string[];
  try {
    words = split(run);
  } catch {
    return null;
  }
  if (words[0] !== 'go' || words[1] !== 'test') return null;
  const test: Flag[] = [];
  const build: Flag[] = [];
  const packages: string[] = [];
  for (let i = 2; i < words.length; i++) {
    const word = words[i]!;
    if (!word.startsWith('-')) {
      packages.push(word);
      continue;
    }
    const [name, inline] = splitFlag(word.replace(/^--?/, ''));
    const kind = TEST_FLAGS[name] ?? BUILD_FLAGS[name];
    if (kind === undefined) return null;
    let value = inline;
    if (kind === 'value' && value === null) {
      if (i + 1 >= words.length) return null;
      value = words[++i]!;
    }
    (name in TEST_FLAGS ? test : build).push({ name, value });
  }
  // One package given as a folder: its folder is where the binary runs. An import path's folder is not known here.
  if (packages.length > 1) return null;
  const pkg = packages[0] ?? null;
  if (pkg !== null && (!/^\.\.?(\/|$)/.test(pkg) || pkg.includes('...'))) return null;
  return { test, build, pkg };
}

function splitFlag(text: string): [string, string | null] {
  const at = text.indexOf('=');
  return at < 0 ? [text, null] : [text.slice(0, at), text.slice(at + 1)];
}

function written(flag: Flag, prefix: string): string {
  return flag.value === null ? `-${prefix}${flag.name}` : `-${prefix}${flag.name}=${quote(flag.value)}`;
}

/** The run line read, when its rounds can run by the compiled binary: one plain `go test` of one package, no template. */
function compilable(run: string): ReturnType<typeof parseGoTest> {
  return run.includes('{') ? null : parseGoTest(run);
}

/** Whether a go-bench suite with this run line has its rounds run by the compiled test binary (compiledGoSuite). */
export function runsCompiled(run: string): boolean {
  return compilable(run) !== null;
}

/**
 * The suite with its rounds run by the compiled test binary: the build
 * compiles it (after the suite's own build), the run line runs it with the
 * same benchmarks, counts and flags. Unchanged when its run line is not one
 * plain `go test` of one package, or holds a template (`{output}`, a sweep's
 * parameter). A round skips the package's tests (`-test.run '^$'`) unless
 * the line chose its own `-run`: only the benchmarks are measured.
 */
export function compiledGoSuite(suite: SuiteConfig): SuiteConfig {
  if (suite.format !== 'go-bench' || suite.commands !== null) return suite;
  const parsed = compilable(suite.run);
  if (!parsed) return suite;
  const pkg = parsed.pkg ?? '.';
  const compile = ['mkdir -p "$PERF_GATE_BUILD_DIR" && go test -c -o', BINARY, ...parsed.build.map((f) => written(f, '')), quote(pkg)].join(' ');
  const runFlag = parsed.test.some((f) => f.name === 'run') ? [] : [`-test.run='^$'`];
  const cd = pkg === '.' ? '' : `cd ${quote(pkg)} && `;
  const own = suite.build === null ? null : isSimpleCommand(suite.build) ? suite.build : `(${suite.build})`;
  return {
    ...suite,
    build: own === null ? compile : `${own} && ${compile}`,
    run: [`${cd}${BINARY}`, ...runFlag, ...parsed.test.map((f) => written(f, 'test.'))].join(' '),
  };
}
