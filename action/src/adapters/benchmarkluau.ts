import { InputError, type BenchmarkResult } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';

/** bench.py colours SUCCESS/FAILED with ANSI escapes when printing to a terminal. */
const ANSI = /\x1b\[[0-9;]*m/g;
/**
 * `SUCCESS: <name padded to 40> : <avg, %8.3f>ms +/- <ci, %6.3f>% on <vm>`, with
 * ` ( +1.234%, likely same)` (`{:+7.3f}`, so padded) appended for a `--compare` VM.
 */
const SUCCESS = /^SUCCESS: (.+?)\s*:\s+(\d+(?:\.\d+)?)ms \+\/-\s+(\d+(?:\.\d+)?)% on (.+?)(?: \(\s*[+-]\d+(?:\.\d+)?%, [^)]*\))?\s*$/;
/** `FAILED:  '<test file or name>' on '<vm path>'`. */
const FAILED = /^FAILED:\s+'(.+)' on '(.+)'\s*$/;

/**
 * Luau's `bench/bench.py` output (github-action-benchmark's `benchmarkluau`):
 * one `SUCCESS: name : 15.041ms +/- 0.636% on luau` line per test, then a
 * RESULTS table repeating Min and Average. The line's value is the mean over
 * the script's runs in milliseconds → `time` (s, lower is better), a single
 * value: the `+/-` is a 95% confidence half-width as a percentage of the mean,
 * with no run count to turn it back into a spread, and the table's Min is not
 * read. With `--compare`, each test has one line per VM: the first VM's keep
 * the test's name, the others' get ` [vm]` appended (and param `vm`).
 * `FAILED:  'path/test.lua' on 'vm'` (a script that produced no result) is a
 * failed benchmark named after the file; a RESULTS header without its `Total`
 * row means the output was cut short, as does a SUCCESS line cut mid-way.
 */
export const benchmarkLuauAdapter: Adapter = {
  name: 'benchmarkluau',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 65536).replace(ANSI, '');
    if (head.split('\n').some((line) => SUCCESS.test(line))) return { match: true };
    return { match: false, reason: 'no "SUCCESS: <name> : <n>ms +/- <p>% on <vm>" line (Luau bench.py)' };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, 'the file is empty; expected Luau bench.py "SUCCESS: <name> : <n>ms +/- <p>% on <vm>" lines');
    const lines = text
      .replace(ANSI, '')
      .split('\n')
      .map((l) => l.replace(/\r$/, ''));
    const results = new Map<string, BenchmarkResult>();
    let mainVm: string | undefined;
    let tableAt: number | undefined;
    let tableClosed = false;
    const add = (result: BenchmarkResult, lineNo: number): void => {
      if (results.has(result.id)) throw new InputError(path, `test "${result.id}" appears twice`, lineNo);
      results.set(result.id, result);
    };
    lines.forEach((line, i) => {
      if (/^=+RESULTS=+$/.test(line)) tableAt = i + 1;
      if (tableAt !== undefined && /^Total\s+\|/.test(line)) tableClosed = true;
      if (line.startsWith('SUCCESS:')) {
        const m = SUCCESS.exec(line);
        if (!m)
          throw new InputError(path, `expected "SUCCESS: <name> : <n>ms +/- <p>% on <vm>", found ${JSON.stringify(line.slice(0, 120))} (cut short?)`, i + 1);
        const [, name, ms, , vm] = m;
        mainVm ??= vm!;
        const other = vm !== mainVm;
        add(
          {
            id: other ? `${name!} [${vm!}]` : name!,
            status: 'ok',
            ...(other ? { params: { vm: vm! } } : {}),
            metrics: { time: buildMetric('time', 's', { value: Number(ms) * 1e-3 }, { sourceUnit: 'ms' }) },
          },
          i + 1,
        );
        return;
      }
      const failed = FAILED.exec(line);
      if (failed) {
        const [, what, vm] = failed;
        // The main VM's failure names the script file; a compared VM's names the test.
        const main = /\.lua$/.test(what!);
        const name = main ? what!.replace(/^.*[\\/]/, '').replace(/\.lua$/, '') : `${what!} [${vm!.replace(/^.*[\\/]/, '')}]`;
        add({ id: name, status: 'failed', error: { message: `bench.py reported FAILED on ${vm!} (the script printed no result)` }, metrics: {} }, i + 1);
      }
    });
    if (results.size === 0) throw new InputError(path, 'no "SUCCESS: <name> : <n>ms +/- <p>% on <vm>" or "FAILED:" line found (Luau bench.py)');
    if (tableAt !== undefined && !tableClosed) {
      throw new InputError(path, 'the RESULTS table has no "Total" row; the output stops early (truncated, or bench.py was killed)', lines.length);
    }
    return [...results.values()];
  },
};
