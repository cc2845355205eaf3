/**
 * A round of the second stage for just the suspects: the suite's run line
 * changed so that the harness runs only the named benchmarks, once, and lets
 * the interleaved rounds do the repeating. A suite of 200 benchmarks with
 * one suspect then costs that one benchmark's rounds, not 200.
 *
 * How a harness selects benchmarks, and what a short round is, per format:
 *
 * | format | selects with | a round runs |
 * | :-- | :-- | :-- |
 * | go-bench | `-bench` with an anchored regex per name level | `-count` ⌊3 / suspects⌋ by the compiled test binary (runner/go-test-binary.ts), ⌊10 / suspects⌋ by `go test`; at least 1, at most the run line's |
 * | criterion, criterion-console, cargo-criterion | the bench binary's regex filter after `--` | at most `--warm-up-time 0.5 --measurement-time 1 --sample-size 10` |
 * | jmh | an anchored include regex | `-f 1` (one fork) |
 * | gbench | `--benchmark_filter` | `--benchmark_repetitions=1` |
 * | divan | `--exact` names after `--` | the run line's own samples (one median) |
 * | vitest-bench | `-t` with an anchored pattern | the bench's own time and iterations |
 * | catch2 | the suspects' test cases, one test spec joined by commas (Catch2 selects test cases; their other benchmarks run too) | at most `--benchmark-samples 10` |
 *
 * A suite's own `filter:` (perf-gate.yml) overrides this, for any format:
 * words appended to the run line, with `{regex}` (an anchored alternation of
 * the names, one quoted word) or `{names}` (each name, quoted). A run line
 * that is not one simple command (a pipe, `&&`, a subshell) cannot take
 * appended words: the whole suite runs, and the report says so.
 *
 * Pure: a suite and names in, a run line (or why not) out.
 */
import { quote } from 'shlex';
import { isSimpleCommand } from '../model/index.js';
import type { SuiteConfig } from '../config/perf-gate-config.js';
import { withCommandsOnly } from '../config/command-suite.js';
import { CATCH2_TEST_CASE } from '../adapters/catch2.js';
import { runsCompiled } from './go-test-binary.js';

export { CATCH2_TEST_CASE };

export type Selection =
  /**
   * `run`: the run line that runs only the named benchmarks, in a short
   * round; `how`: what it used; `share`: the part of the plain run line's
   * time per benchmark that a short round takes (1 when unknown), for the
   * second stage's estimate of its own cost.
   */
  | { run: string; how: string; share: number }
  /** The suite cannot be narrowed: it runs whole in every round, for `why`. */
  | { run: null; why: string };

/** The characters that are syntax outside a class in Go's RE2, Rust's regex, Java's Pattern, ECMAScript and POSIX ERE alike; escaping others is not portable. */
const REGEX_META = /[\\.+*?()|[\]{}^$]/g;

function escapeRegex(text: string): string {
  return text.replace(REGEX_META, (c) => `\\${c}`);
}

/** `^(?:a|b)$`, the names escaped. */
function anchored(names: readonly string[]): string {
  return `^(?:${[...new Set(names)].map(escapeRegex).join('|')})$`;
}

/**
 * A Go -bench pattern: Go splits it at slashes and matches each level of a
 * benchmark's name (`BenchmarkJoin/size=10`) by its own part. Names of one
 * depth get one anchored alternation per level; names of mixed depths select
 * their top levels (the rows not asked for are measured, then ignored).
 */
function goPattern(names: readonly string[]): string {
  const levels = names.map((n) => n.split('/'));
  const depth = levels[0]!.length;
  if (levels.some((l) => l.length !== depth)) return anchored(levels.map((l) => l[0]!));
  return Array.from({ length: depth }, (_, i) => anchored(levels.map((l) => l[i]!))).join('/');
}

/**
 * The run line with `flag` set to `value`: an existing occurrence's value is
 * replaced (harness parsers differ on a repeated option: some take the last,
 * some refuse), else the flag is appended. `joined`: written `--flag=value`.
 */
function withOption(run: string, flag: string, value: string, joined = false): string {
  const escaped = flag.replace(REGEX_META, (c) => `\\${c}`);
  const existing = new RegExp(`(^|\\s)${escaped}(?:=|\\s+)(?:'[^']*'|"[^"]*"|\\S+)`);
  const word = joined ? `${flag}=${value}` : `${flag} ${value}`;
  return existing.test(run) ? run.replace(existing, (_m, lead: string) => `${lead}${word}`) : `${run} ${word}`;
}

/** The run line with ` -- ` before the bench binary's own arguments (cargo bench, cargo criterion). */
function withBinaryArgs(run: string, args: string): string {
  return /(^|\s)--(\s|$)/.test(run) ? `${run} ${args}` : `${run} -- ${args}`;
}

/** The value the run line gives `flag` (`-f 3`, `--flag=3`), as a number; `fallback` (the harness's default) when absent or not a number. */
function optionNumber(run: string, flag: string, fallback: number): number {
  const escaped = flag.replace(REGEX_META, (c) => `\\${c}`);
  const found = new RegExp(`(?:^|\\s)${escaped}(?:=|\\s+)['"]?([0-9.]+)`).exec(run);
  const value = found ? Number(found[1]) : NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/**
 * Go's `-count` in a round. The rounds do the repeating, but every round
 * pays a start whatever it runs, against some milliseconds per repetition:
 * a `go test` start checks the build cache and links the test binary (0.33 s
 * here), so a round of few suspects that starts `go test` spends up to ten
 * repetitions in all, its value (the median of each suspect's) steadier for
 * almost nothing; the compiled test binary (runner/go-test-binary.ts) starts
 * in 0.01 s, so its rounds spend up to three and let more rounds do the
 * rest. A round of many suspects runs each once; never more than the run
 * line asks for. Measured on the suites of docs/detection.md: with `-count 1`
 * and `go test` a 10 % slowdown came out +6 % after 30 rounds, and two of
 * six slowed rows were missed; by the binary, three repetitions instead of
 * ten took slowed pull requests of the 24-benchmark suite from 3.1–4.5 main
 * runs to 1.8–2.6, every slowed row still caught.
 */
const GO_ROUND_REPETITIONS = { goTest: 10, binary: 3 };

function goRoundCount(run: string, suspects: number): number {
  const repetitions = runsCompiled(run) ? GO_ROUND_REPETITIONS.binary : GO_ROUND_REPETITIONS.goTest;
  return Math.max(1, Math.min(optionNumber(run, '-count', 1), Math.floor(repetitions / suspects)));
}

/**
 * Per format: what part of the plain run line's time per benchmark a short
 * round of `suspects` benchmarks takes, from the repetitions the plain line
 * asks for (the harness's default when it asks for none): Go's `-count`,
 * criterion's warm-up and measurement time (3 s and 5 s by default; a round
 * takes 0.5 s and 1 s), JMH's forks (5 by default), Google Benchmark's
 * repetitions.
 */
const ROUND_SHARE: Record<string, (run: string, suspects: number) => number> = {
  'go-bench': (run, suspects) => goRoundCount(run, suspects) / optionNumber(run, '-count', 1),
  criterion: (run) => criterionShare(run),
  'criterion-console': (run) => criterionShare(run),
  'cargo-criterion': (run) => criterionShare(run),
  jmh: (run) => 1 / optionNumber(run, '-f', 5),
  catch2: (run) => {
    const samples = optionNumber(run, '--benchmark-samples', 100);
    return Math.min(10, samples) / samples;
  },
  gbench: (run) => 1 / optionNumber(run, '--benchmark_repetitions', 1),
};

function criterionShare(run: string): number {
  const [warmUp, measure] = [optionNumber(run, '--warm-up-time', 3), optionNumber(run, '--measurement-time', 5)];
  return Math.min(1, (Math.min(warmUp, 0.5) + Math.min(measure, 1)) / (warmUp + measure));
}

/** Per format: the run line selecting `names` (the ids without the suite's prefix) in a short round. */
const BUILT_IN: Record<string, (run: string, names: readonly string[]) => string> = {
  'go-bench': (run, names) => withOption(withOption(run, '-bench', quote(goPattern(names))), '-count', String(goRoundCount(run, names.length))),
  criterion: (run, names) => criterionRound(run, names),
  'criterion-console': (run, names) => criterionRound(run, names),
  'cargo-criterion': (run, names) => criterionRound(run, names),
  jmh: (run, names) => withOption(`${run} ${quote(anchored(names))}`, '-f', '1'),
  gbench: (run, names) => withOption(withOption(run, '--benchmark_filter', quote(anchored(names)), true), '--benchmark_repetitions', '1', true),
  // divan matches `--exact` names against its paths, `::` between the levels (perf-gate's ids use `/`).
  divan: (run, names) => withBinaryArgs(run, `--exact ${names.map((n) => quote(n.replaceAll('/', '::'))).join(' ')}`),
  // vitest matches -t against the describe blocks and the name joined by spaces (the id's file part is not in it).
  'vitest-bench': (run, names) => withOption(run, '-t', quote(anchored(names.map((n) => n.split(' > ').slice(1).join(' '))))),
};

/**
 * Catch2's test spec for one test case's name: `*`, `~`, `,`, `[`, `]`,
 * `"` and `\\` are syntax in a spec, so each is escaped with a backslash
 * (Catch2 2.x and 3.x read `\\` as an escape).
 */
function catch2Spec(testCase: string): string {
  return testCase.replace(/[[\]*,~\\"]/g, (c) => `\\${c}`);
}

/**
 * Catch2's short round: the test cases named, at most 10 samples (100 by
 * default; a run line that asks for fewer keeps its own). The specs go in one
 * argument, joined by commas: Catch2 runs a test case any of them names,
 * whereas specs in separate arguments must all match.
 */
function catch2Round(run: string, testCases: readonly string[]): string {
  const line = `${run} ${quote([...new Set(testCases)].map(catch2Spec).join(','))}`;
  return optionNumber(line, '--benchmark-samples', 100) > 10 ? withOption(line, '--benchmark-samples', '10') : line;
}

/** criterion's short round: at most 0.5 s of warm-up, 1 s of measurement and 10 samples; a run line that asks for less keeps its own. */
function criterionRound(run: string, names: readonly string[]): string {
  let line = withBinaryArgs(run, quote(anchored(names)));
  for (const [flag, most] of [
    ['--warm-up-time', 0.5],
    ['--measurement-time', 1],
    ['--sample-size', 10],
  ] as const)
    if (optionNumber(line, flag, Infinity) > most) line = withOption(line, flag, String(most));
  return line;
}

/** The harness's name of a benchmark, from its id in the suite: JMH's `[params]` and a repeat's ` #2` are not part of it; Go's package prefix and `[procs=…]` neither. */
function harnessName(format: string, name: string): string {
  const bare = name.replace(/ #\d+$/, '');
  if (format === 'jmh') return bare.replace(/\[.*\]$/, '');
  if (format === 'go-bench') {
    const plain = bare.replace(/\[procs=[^\]]*\]$/, '');
    const at = plain.indexOf('.Benchmark');
    return at >= 0 ? plain.slice(at + 1) : plain;
  }
  return bare;
}

/**
 * How the second stage runs only `ids` (benchmark ids of the suite) in a
 * short round, or why it cannot. `testCases`: Catch2's test case of each id,
 * from the results that named them.
 */
export function selectBenchmarks(suite: SuiteConfig, ids: readonly string[], testCases: ReadonlyMap<string, string> = new Map()): Selection {
  const names = ids.map((id) => (id.startsWith(`${suite.name}/`) ? id.slice(suite.name.length + 1) : id));
  if (names.length === 0) return { run: null, why: 'no benchmark to select' };
  if (suite.commands !== null) return { run: null, why: 'a commands: suite is narrowed by its commands' };
  if (!isSimpleCommand(suite.run)) return { run: null, why: 'its run line is not one simple command, so nothing can be appended to it' };
  if (suite.filter !== null) {
    const filled = suite.filter.replaceAll('{regex}', quote(anchored(names))).replaceAll('{names}', names.map((n) => quote(n)).join(' '));
    return { run: `${suite.run} ${filled}`, how: 'its filter:', share: 1 };
  }
  if (suite.format === 'catch2') {
    const unknown = ids.find((id) => !testCases.has(id));
    if (unknown !== undefined) return { run: null, why: `Catch2 selects test cases, and the test case of ${unknown} is not known; give the suite a filter:` };
    return {
      run: catch2Round(
        suite.run,
        ids.map((id) => testCases.get(id)!),
      ),
      how: "catch2's own selection (the suspects' test cases)",
      share: Math.min(1, ROUND_SHARE['catch2']!(suite.run, ids.length)),
    };
  }
  const builtIn = BUILT_IN[suite.format];
  if (!builtIn) return { run: null, why: `perf-gate cannot select benchmarks of format ${suite.format}; give the suite a filter:` };
  const harness = [...new Set(names.map((n) => harnessName(suite.format, n)))];
  return {
    run: builtIn(suite.run, harness),
    how: `${suite.format}'s own selection`,
    share: Math.min(1, ROUND_SHARE[suite.format]?.(suite.run, harness.length) ?? 1),
  };
}

/**
 * The suite narrowed to `ids` for interleaved rounds: a `commands:` suite to
 * those commands, a harness suite through selectBenchmarks; `whole` says why
 * a harness suite could not be narrowed (null when it was, or when it is a
 * `commands:` suite); `share` is the part of the plain run's time per
 * benchmark a round takes (Selection.share; 1 for commands and whole
 * suites). Ids of other suites are ignored; a suite none of the ids belongs
 * to runs whole.
 */
export function narrowSuite(
  suite: SuiteConfig,
  ids: readonly string[],
  testCases?: ReadonlyMap<string, string>,
): { suite: SuiteConfig; whole: string | null; share: number } {
  const own = ids.filter((id) => id.startsWith(`${suite.name}/`));
  if (own.length === 0) return { suite, whole: null, share: 1 };
  if (suite.commands !== null) return { suite: withCommandsOnly(suite, (c) => own.includes(`${suite.name}/${c.name}`)), whole: null, share: 1 };
  const selection = selectBenchmarks(suite, own, testCases);
  return selection.run !== null ? { suite: { ...suite, run: selection.run }, whole: null, share: selection.share } : { suite, whole: selection.why, share: 1 };
}
