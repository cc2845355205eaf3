import { InputError, type BenchmarkResult } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';
import { textLines } from './text-lines.js';

/** `label: 0.034ms`, `label: 12ms`, `label: 1.234s`; browsers append ` - timer ended`. */
const SHORT = /^(.+): (\d+(?:\.\d+)?)(ms|s)(?: - timer ended)?$/;
/** Node's form from one minute on: `label: 1:02.345 (m:ss.mmm)`. */
const MINUTES = /^(.+): (\d+):(\d{2}\.\d+) \(m:ss\.mmm\)$/;
/** …and from one hour on: `label: 1:02:03.456 (h:mm:ss.mmm)`. */
const HOURS = /^(.+): (\d+):(\d{2}):(\d{2}\.\d+) \(h:mm:ss\.mmm\)$/;
/** A last line that stops inside the number (`label: 1.2`, `label: 1:02.3`): the output was cut. */
const CUT = /^.+: \d[\d.:]*$/;
/** How many lines detection looks at: enough to judge, cheap on a large log. */
const DETECT_LINES = 1000;

/** One timer line's label and seconds, or undefined for any other line. */
function timerLine(line: string): { label: string; seconds: number } | undefined {
  let m = SHORT.exec(line);
  if (m) return { label: m[1]!, seconds: Number(m[2]) * (m[3] === 'ms' ? 1e-3 : 1) };
  m = MINUTES.exec(line);
  if (m) return { label: m[1]!, seconds: Number(m[2]) * 60 + Number(m[3]) };
  m = HOURS.exec(line);
  if (m) return { label: m[1]!, seconds: Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4]) };
  return undefined;
}

/**
 * `console.time(label)` / `console.timeEnd(label)` output: `label: 1.234ms`
 * (Node prints milliseconds to three decimals, trailing zeros dropped, so
 * `label: 12ms` too), `label: 1.234s` from one second on, and
 * `label: 1:02.345 (m:ss.mmm)` / `label: 1:02:03.456 (h:mm:ss.mmm)` from one
 * minute and one hour on; Deno prints the first form, browsers append
 * ` - timer ended`. Labels may hold `: ` (the number is taken from the end).
 * Each line is one sample of `time` (s, lower is better) for its label;
 * a label timed several times gives samples in output order, once a single value.
 *
 * The lines carry no marker of their tool, so auto-detection is strict: it
 * takes a file only when every non-empty line of its first thousand is a timer
 * line, and never claims a log that merely contains a few. Chosen explicitly
 * (`format: console-time`), other lines are skipped, so a program's own prints
 * may sit between the timers. `console.timeLog(label)` prints the same shape
 * (intermediate times) and cannot be told apart: time with timeEnd only. A
 * last line that stops inside its number is output cut short, an error.
 */
export const consoleTimeAdapter: Adapter = {
  name: 'console-time',

  detect({ text }: AdapterInput) {
    const lines = textLines(text, DETECT_LINES).filter((l) => l.trim() !== '');
    if (lines.length === 0) return { match: false, reason: 'no lines' };
    const other = lines.find((l) => !timerLine(l));
    if (other !== undefined)
      return { match: false, reason: `not every line is a console.time line ("<label>: <n>ms"), e.g. ${JSON.stringify(other.slice(0, 60))}` };
    return { match: true };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, 'the file is empty; expected console.time lines ("<label>: <n>ms")');
    const lines = textLines(text);
    const last = lines.length - 1 - [...lines].reverse().findIndex((l) => l.trim() !== '');
    if (!text.endsWith('\n') && CUT.test(lines[last]!) && !timerLine(lines[last]!)) {
      throw new InputError(path, `the last line stops inside its time, ${JSON.stringify(lines[last]!.slice(0, 120))} (the output was cut short)`, last + 1);
    }
    const times = new Map<string, number[]>();
    for (const line of lines) {
      const timer = timerLine(line);
      if (timer) times.set(timer.label, [...(times.get(timer.label) ?? []), timer.seconds]);
    }
    if (times.size === 0) throw new InputError(path, 'no console.time line ("<label>: <n>ms", "<label>: <n>s") found');
    return [...times.entries()].map(([id, seconds]) => ({
      id,
      status: 'ok',
      metrics: { time: buildMetric('time', 's', seconds.length === 1 ? { value: seconds[0]! } : { samples: seconds }, { sourceUnit: 'ms' }) },
    }));
  },
};
