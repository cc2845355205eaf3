import { InputError, type BenchmarkResult } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';
import { textLines } from './text-lines.js';

/**
 * A number as Dart's `double.toString()` prints it: `1.0`, `1234.5678`,
 * `1e-7`, `1.2e+21`; `NaN` and `Infinity` are caught separately as errors.
 */
const DART_DOUBLE = String.raw`-?\d+(?:\.\d+)?(?:e[+-]?\d+)?`;
/** `Template(RunTime): 1.0 us.`: what `BenchmarkBase.report()` prints through its PrintEmitter. */
const REPORT = new RegExp(String.raw`^(.+)\(RunTime\): (${DART_DOUBLE}) us\.$`);
/** A line that starts like a report; one that then fails REPORT is cut short or corrupt. */
const STARTS_LIKE_REPORT = /^.+\(RunTime\):/;

/**
 * Dart `benchmark_harness` output: one `Name(RunTime): <score> us.` line per
 * benchmark, printed by `BenchmarkBase.report()` (and `AsyncBenchmarkBase`).
 * The score is the mean time of one `run()` in microseconds, measured over
 * about two seconds, the only number the harness gives: `time` (s, lower is
 * better) is a single value. A name reported twice (a benchmark run in a loop)
 * gives samples in output order. Other lines (the program's own prints) are
 * ignored; a report line that is cut short, or a score of `NaN`/`Infinity`,
 * is an error naming the line. A benchmark that throws stops the Dart program,
 * so it leaves no line: nothing here can name it.
 */
export const dartBenchmarkHarnessAdapter: Adapter = {
  name: 'dart-benchmark-harness',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 65536);
    if (textLines(head).some((line) => REPORT.test(line))) return { match: true };
    return { match: false, reason: 'no "<Name>(RunTime): <score> us." line (Dart benchmark_harness)' };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, 'the file is empty; expected Dart benchmark_harness "<Name>(RunTime): <score> us." lines');
    const scores = new Map<string, number[]>();
    textLines(text).forEach((line, i) => {
      const m = REPORT.exec(line);
      if (!m) {
        if (STARTS_LIKE_REPORT.test(line)) {
          throw new InputError(
            path,
            `expected "<Name>(RunTime): <score> us.", found ${JSON.stringify(line.slice(0, 120))} (cut short, or a score that is not a number)`,
            i + 1,
          );
        }
        return;
      }
      const us = Number(m[2]);
      if (!Number.isFinite(us) || us < 0) throw new InputError(path, `expected a non-negative score in microseconds, found ${m[2]}`, i + 1);
      scores.set(m[1]!, [...(scores.get(m[1]!) ?? []), us * 1e-6]);
    });
    if (scores.size === 0) throw new InputError(path, 'no "<Name>(RunTime): <score> us." line found (Dart benchmark_harness)');
    return [...scores.entries()].map(([id, values]) => ({
      id,
      status: 'ok',
      metrics: { time: buildMetric('time', 's', values.length === 1 ? { value: values[0]! } : { samples: values }, { sourceUnit: 'us' }) },
    }));
  },
};
