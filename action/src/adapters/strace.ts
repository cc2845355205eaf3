import { InputError, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { idFromPath } from './file-name-id.js';
import { buildMetric } from './build-metric.js';

/** The dashed rule under the header; its dash runs give the column spans. */
const RULE = /^-+( +-+)+\s*$/;

interface Row {
  name: string;
  calls: number;
  errors: number | undefined;
  seconds: number | undefined;
}

/**
 * `strace -c` summary tables (`-c -f`, `-c -w`, `-c -U name,calls,…`), from
 * `-o file` or stderr. Columns are found by header name and read by the spans
 * of the dashed rule, because `errors` is blank when zero. Metrics:
 * - `syscalls`: total calls; `syscalls.<name>`: calls per syscall (exact counts);
 * - `syscalls.seconds` and `syscalls.<name>.seconds`: time in the syscalls
 *   (system time, or wall time with -w; noisy, not exact), when that column is shown;
 * - `syscalls.errors` (total, always) and `syscalls.<name>.errors` for the
 *   syscalls that failed at least once (absent means none failed).
 * Extra tables for other personalities (`System call usage summary for 32 bit
 * mode:`) are added in. strace does not print the command, so the id is the
 * file name without its extension.
 */
export const straceAdapter: Adapter = {
  name: 'strace',

  detect({ text }: AdapterInput) {
    const lines = text.slice(0, 65536).split('\n');
    const at = lines.findIndex((l) => RULE.test(l));
    if (at < 1) return { match: false, reason: 'no strace -c table (a header with "calls" and "syscall" over a dashed rule)' };
    const header = lines[at - 1]!;
    if (!/\bcalls\b/.test(header) || !/\bsyscall\b/.test(header)) return { match: false, reason: 'the table header lacks "calls" and "syscall" columns' };
    return { match: true };
  },

  parse({ text, path, name }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, 'the file is empty; expected an strace -c summary table');
    const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
    const totals = new Map<string, Row>();
    let total: Row | undefined;
    let tables = 0;
    let hasSeconds = false;
    let hasErrors = false;
    for (let i = 1; i < lines.length; i++) {
      if (!RULE.test(lines[i]!) || !/\bsyscall\b/.test(lines[i - 1]!)) continue;
      tables++;
      const spans = spansOf(lines[i]!);
      const names = spans.map((s) => columnName(lines[i - 1]!, s, spans));
      const col = (name: string): number => names.indexOf(name);
      if (col('calls') < 0) throw new InputError(path, `expected a "calls" column in the strace -c header, found ${JSON.stringify(lines[i - 1]!.trim())}`, i);
      hasSeconds ||= col('seconds') >= 0;
      hasErrors ||= col('errors') >= 0;
      let j = i + 1;
      let closed = false;
      for (; j < lines.length; j++) {
        const line = lines[j]!;
        if (RULE.test(line)) {
          const row = readRow(lines[j + 1] ?? '', j + 2, spans, names, path);
          if (row.name !== 'total')
            throw new InputError(path, `expected the "total" row after the closing rule, found ${JSON.stringify((lines[j + 1] ?? '').trim())}`, j + 2);
          total = total ? add(total, row) : row;
          closed = true;
          break;
        }
        if (line.trim() === '') continue;
        const row = readRow(line, j + 1, spans, names, path);
        const previous = totals.get(row.name);
        totals.set(row.name, previous ? add(previous, row) : row);
      }
      if (!closed) throw new InputError(path, 'the strace -c table has no closing rule and "total" row; the output is truncated', lines.length);
      i = j + 1;
    }
    if (tables === 0 || !total) throw new InputError(path, 'no strace -c table found (a header with "calls" and "syscall" over a dashed rule)');

    const metrics: Record<string, Metric> = {};
    metrics.syscalls = buildMetric('syscalls', 'count', { value: total.calls });
    if (hasSeconds && total.seconds !== undefined)
      metrics['syscalls.seconds'] = buildMetric('syscalls.seconds', 's', { value: total.seconds }, { sourceUnit: 's' });
    if (hasErrors) metrics['syscalls.errors'] = buildMetric('syscalls.errors', 'count', { value: total.errors ?? 0 });
    for (const row of totals.values()) {
      metrics[`syscalls.${row.name}`] = buildMetric(`syscalls.${row.name}`, 'count', { value: row.calls });
      if (row.seconds !== undefined)
        metrics[`syscalls.${row.name}.seconds`] = buildMetric(`syscalls.${row.name}.seconds`, 's', { value: row.seconds }, { sourceUnit: 's' });
      if (row.errors) metrics[`syscalls.${row.name}.errors`] = buildMetric(`syscalls.${row.name}.errors`, 'count', { value: row.errors });
    }
    return [{ id: name ?? idFromPath(path), status: 'ok', metrics }];
  },
};

function spansOf(rule: string): [number, number][] {
  const spans: [number, number][] = [];
  const re = /-+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(rule)) !== null) spans.push([m.index, m.index + m[0].length]);
  return spans;
}

/** The header word over a span (right-aligned numeric headers can start left of it, so look back to the previous span's end). */
function columnName(header: string, span: [number, number], spans: [number, number][]): string {
  const k = spans.indexOf(span);
  const from = k === 0 ? 0 : spans[k - 1]![1];
  const to = k === spans.length - 1 ? header.length : span[1];
  const name = header.slice(from, to).trim();
  return name === '% time' ? '% time' : name;
}

/** Reads one row; the last column (the syscall name, when last) may run past its span. */
function readRow(line: string, lineNo: number, spans: [number, number][], names: string[], path: string): Row {
  const cells = spans.map(([, end], k) => {
    const from = k === 0 ? 0 : spans[k - 1]![1];
    const to = k === spans.length - 1 ? line.length : end;
    return line.slice(from, to).trim();
  });
  const get = (name: string): string | undefined => {
    const k = names.indexOf(name);
    return k < 0 ? undefined : cells[k];
  };
  const name = get('syscall');
  if (!name || !/^[\w?:-]+$/.test(name))
    throw new InputError(path, `expected a syscall name in the strace -c row ${JSON.stringify(line.trim())} (truncated?)`, lineNo);
  const calls = integer(get('calls'), false, 'calls', line, lineNo, path)!;
  const errors = integer(get('errors'), true, 'errors', line, lineNo, path);
  const secondsText = get('seconds');
  let seconds: number | undefined;
  if (secondsText !== undefined) {
    seconds = Number(secondsText);
    if (secondsText === '' || !Number.isFinite(seconds) || seconds < 0)
      throw new InputError(path, `expected seconds in the strace -c row, found ${JSON.stringify(secondsText)}`, lineNo);
  }
  return { name, calls, errors, seconds };
}

function integer(text: string | undefined, blankIsZero: boolean, what: string, line: string, lineNo: number, path: string): number | undefined {
  if (text === undefined) return undefined;
  if (text === '' && blankIsZero) return 0;
  if (!/^\d+$/.test(text))
    throw new InputError(path, `expected a whole number of ${what} in the strace -c row ${JSON.stringify(line.trim())}, found ${JSON.stringify(text)}`, lineNo);
  return Number(text);
}

function add(a: Row, b: Row): Row {
  return {
    name: a.name,
    calls: a.calls + b.calls,
    errors: a.errors === undefined && b.errors === undefined ? undefined : (a.errors ?? 0) + (b.errors ?? 0),
    seconds: a.seconds === undefined && b.seconds === undefined ? undefined : (a.seconds ?? 0) + (b.seconds ?? 0),
  };
}
