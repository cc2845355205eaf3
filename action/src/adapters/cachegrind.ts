import { InputError, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';
import { textLines } from './text-lines.js';

/**
 * valgrind cachegrind output files (`valgrind --tool=cachegrind --cache-sim=yes
 * --cachegrind-out-file=F cmd`): `desc:` lines (the simulated caches), `cmd:`,
 * `events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw`, per-function cost lines
 * (`fl=`, `fn=`, `<line> <counts…>`), and last the `summary:` line with the
 * program's totals, which is what is read:
 *
 *   instructions      Ir
 *   l1_misses         I1mr + D1mr + D1mw        (first-level misses, code and data)
 *   ll_misses         ILmr + DLmr + DLmw        (last-level misses: trips to memory)
 *   estimated_cycles  Ir + 10 × l1_misses + 100 × ll_misses
 *
 * all lower-is-better counts. The estimated-cycles weights are KCachegrind's
 * "Cycle Estimation" (CEst = Ir + 10 Bm + 10 L1m + 20 Ge + 100 L2m + 100 LLm,
 * libviews/globalconfig.cpp) without its branch (Bm) and bus (Ge) terms, so
 * the value does not change with `--branch-sim`. iai and iai-callgrind use
 * another model under the same name (L1 hits + 5 × LL hits + 35 × RAM hits,
 * from pythonspeed.com), so the two tools' estimated cycles do not compare.
 *
 * Without cache simulation (`--cache-sim=no`, the default from valgrind 3.21)
 * the events are only `Ir`: then only `instructions` is read. Extra events
 * (`--branch-sim=yes`: Bc Bcm Bi Bim) are ignored.
 *
 * The file is checked the way cg_annotate checks it: every cost line must be
 * a line number and counts, and the summary must equal the sum of the cost
 * lines, so a file damaged in the middle is an error naming the line, not a
 * wrong total. A missing `summary:` means the file is cut short (cachegrind
 * writes it last). The id is the `cmd:` line; a command holding a newline
 * continues on the next lines up to `events:`, and is kept with its newlines.
 */
export const cachegrindAdapter: Adapter = {
  name: 'cachegrind',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 4096);
    if (!/^events: /m.test(head)) return { match: false, reason: 'no "events:" line near the start' };
    // callgrind files have events too, under a header of their own.
    if (/^# callgrind format|^(creator|version|positions): /m.test(head))
      return { match: false, reason: 'a callgrind file (creator/version/positions header), not cachegrind' };
    if (!/^(desc|cmd): /.test(head)) return { match: false, reason: 'does not start with the "desc:" or "cmd:" line of a cachegrind file' };
    return { match: true };
  },

  parse(input: AdapterInput): BenchmarkResult[] {
    const { path, text } = input;
    if (text.trim() === '') throw new InputError(path, 'the file is empty; expected a cachegrind.out file');
    const totals = readTotals(text, path);
    const id = totals.cmd || input.name || 'cachegrind';
    return [{ id, status: 'ok', metrics: cachegrindMetrics(totals.events) }];
  },
};

/** What a cachegrind file holds once checked: the command and each event's total. */
export interface CachegrindTotals {
  cmd: string;
  events: Record<string, number>;
}

/** The events cache simulation adds; all of them are needed for the cache metrics. */
const L1_EVENTS = ['I1mr', 'D1mr', 'D1mw'] as const;
const LL_EVENTS = ['ILmr', 'DLmr', 'DLmw'] as const;

/** KCachegrind's cycle-estimation weights (see the header): an L1 miss costs about 10 cycles, a last-level miss about 100. */
export const L1_MISS_CYCLES = 10;
export const LL_MISS_CYCLES = 100;

/** Estimated cycles from the three counts; pure arithmetic, the one place the model lives. */
export function estimatedCycles(instructions: number, l1Misses: number, llMisses: number): number {
  return instructions + L1_MISS_CYCLES * l1Misses + LL_MISS_CYCLES * llMisses;
}

/** The metric values of one set of event totals (names as in the header); cache metrics only when every cache event is there. */
export function cachegrindValues(events: Readonly<Record<string, number>>): Record<string, number> {
  const values: Record<string, number> = { instructions: events['Ir']! };
  const has = (names: readonly string[]): boolean => names.every((n) => events[n] !== undefined);
  if (has(L1_EVENTS) && has(LL_EVENTS)) {
    const sum = (names: readonly string[]): number => names.reduce((s, n) => s + events[n]!, 0);
    values['l1_misses'] = sum(L1_EVENTS);
    values['ll_misses'] = sum(LL_EVENTS);
    values['estimated_cycles'] = estimatedCycles(values['instructions']!, values['l1_misses']!, values['ll_misses']!);
  }
  return values;
}

/** The metrics of one set of event totals, each a single value. */
function cachegrindMetrics(events: Readonly<Record<string, number>>): Record<string, Metric> {
  return Object.fromEntries(
    // Only instructions is one event as cachegrind names it; the others are sums.
    Object.entries(cachegrindValues(events)).map(([name, value]) => [
      name,
      buildMetric(name, 'count', { value }, name === 'instructions' ? { sourceUnit: 'Ir' } : {}),
    ]),
  );
}

const COST_LINE = /^\d+(?: \d+)*$/;
// Position and name lines of the cost section: file, inlined file, function, object.
const NAME_LINE = /^(?:fl|fi|fe|fn|ob)=/;

/**
 * Reads and checks a cachegrind file: the command, the events, and the
 * `summary:` totals, which must match the sum of the cost lines.
 */
export function readTotals(text: string, path: string): CachegrindTotals {
  const lines = textLines(text);
  let cmd: string | undefined;
  let inCmd = false;
  let events: string[] | undefined;
  let sums: number[] = [];
  let summary: { values: number[]; line: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    const at = i + 1;
    if (summary) {
      if (line.trim() !== '')
        throw new InputError(path, `unexpected text after the "summary:" line (cachegrind writes it last): ${JSON.stringify(line.slice(0, 80))}`, at);
      continue;
    }
    if (line.startsWith('events:')) {
      if (events) throw new InputError(path, 'a second "events:" line; expected one cachegrind run per file', at);
      events = line.slice(7).trim().split(/\s+/).filter(Boolean);
      if (!events.includes('Ir'))
        throw new InputError(path, `the events (${events.join(' ') || 'none'}) do not include Ir (instructions), which cachegrind always counts`, at);
      sums = events.map(() => 0);
      inCmd = false;
    } else if (line.startsWith('cmd:')) {
      cmd = line.slice(4).trim();
      inCmd = true;
    } else if (inCmd) {
      // valgrind writes the command's arguments as they are, so an argument holding a newline continues here.
      cmd = `${cmd ?? ''}\n${line}`;
    } else if (line.startsWith('desc:') || line.trim() === '') {
      // The simulated caches' sizes, or a blank line: nothing to read.
    } else if (!events) {
      throw new InputError(path, `expected the "desc:", "cmd:" and "events:" header of a cachegrind file, found ${JSON.stringify(line.slice(0, 80))}`, at);
    } else if (line.startsWith('summary:')) {
      const values = line.slice(8).trim().split(/\s+/);
      if (values.length !== events.length || !values.every((v) => /^\d+$/.test(v))) {
        throw new InputError(
          path,
          `expected ${events.length} whole counts in "summary:" (one per event: ${events.join(' ')}), found ${JSON.stringify(line.slice(0, 120))}`,
          at,
        );
      }
      summary = { values: values.map(Number), line: at };
    } else if (COST_LINE.test(line)) {
      // A source line number, then the counts of the events in order (trailing zeros may be left out).
      const counts = line.split(' ').slice(1).map(Number);
      if (counts.length > events.length) throw new InputError(path, `a cost line with ${counts.length} counts, but there are ${events.length} events`, at);
      counts.forEach((c, k) => (sums[k]! += c));
    } else if (!NAME_LINE.test(line)) {
      throw new InputError(
        path,
        `expected a cost line (a line number and ${events.length} counts), "fl=", "fn=" or "summary:", found ${JSON.stringify(line.slice(0, 80))}`,
        at,
      );
    }
  }
  if (!events) throw new InputError(path, 'no "events:" line; expected a cachegrind output file', 1);
  if (!summary) throw new InputError(path, 'no "summary:" line; the cachegrind file is truncated (cachegrind writes it last)', lines.length);
  const { values, line } = summary;
  const names = events;
  const differ = names.flatMap((n, k) => (values[k] === sums[k] ? [] : [`${n} ${values[k]} against ${sums[k]}`]));
  if (differ.length > 0) {
    throw new InputError(path, `the "summary:" totals do not match the sum of the cost lines (${differ.join(', ')}); the file is damaged`, line);
  }
  return { cmd: (cmd ?? '').trim(), events: Object.fromEntries(names.map((n, k) => [n, values[k]!])) };
}
