import { InputError, scaleValue, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';

/** A table's header: `<bench target>  fastest │ slowest │ median │ mean │ samples │ iters`. */
const HEADER = /^(\S+)\s+fastest\s+│\s*slowest\s+│\s*median\s+│\s*mean\s+│\s*samples\s+│\s*iters\s*$/;
/** The tree's branch marks before a name: `├─ ` and `╰─ `, after `│  ` or blank indentation per level. */
const BRANCH = /^((?:[│ ] {2})*)([├╰])─ (.*)$/;

/**
 * divan's console tree (`cargo bench`; divan 0.1 has no machine-readable
 * output). One table a bench target, headed `<target> fastest │ slowest │
 * median │ mean │ samples │ iters`; rows are nested by the tree (`├─`,
 * `╰─`): modules, functions, then `args` values, generic `types` and
 * `threads` (`t=2`) as deeper rows. A row with numbers is a benchmark; its id
 * is its path from the target: `words/bytes/1000`, `words/sum/u32`.
 *
 * `time` (s ↓) is the median column, one value a run: divan prints no
 * spread and no samples, and a mean pulled by one slow outlier would cry
 * wolf, so the median is what is compared; a suite with `repeat: 5` gives five
 * medians, and the rank test runs on them. `samples` and `iters` become
 * params. Continuation lines under a row are read too: a counter's
 * throughput (`1.021 GB/s` → `bytes_per_second` B/s ↑, `item/s` →
 * `throughput` 1/s ↑, `char/s` → `chars_per_second` 1/s ↑, decimal
 * prefixes as divan prints them, binary ones for `KiB/s` …; the median
 * column), and AllocProfiler's `alloc:`, `max alloc:`, `dealloc:`, `grow:`,
 * `shrink:` blocks (a count line and a bytes line each, per iteration) →
 * `allocs` and `alloc_bytes`, `max_allocs` and `max_alloc_bytes` …, exact
 * counts, from the median column. A row whose
 * name is printed and nothing after it is a benchmark that panicked: a
 * failed row, with the panic's message when standard error was kept
 * (`2>&1`). Times are ps, ns, µs, ms or s.
 */
export const divanAdapter: Adapter = {
  name: 'divan',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 65536);
    if (!head.split('\n').some((line) => HEADER.test(line.trim())))
      return { match: false, reason: 'no divan header ("<target>  fastest │ slowest │ median │ mean │ samples │ iters")' };
    return { match: true };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, `the file is empty; expected divan's console tree (cargo bench)`);
    const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
    const results: BenchmarkResult[] = [];
    let table: Table | undefined;
    lines.forEach((line, i) => {
      const header = HEADER.exec(line.trim());
      if (header) {
        table = { target: header[1]!, fastestColumn: line.indexOf('fastest'), stack: [], last: undefined, pending: undefined };
        return;
      }
      if (table) {
        const ended = readLine(table, line, i + 1, path, results);
        if (ended) table = undefined;
      }
    });
    if (results.length === 0)
      throw new InputError(path, 'no divan benchmark found; expected a header "<target> fastest │ slowest │ median │ mean │ samples │ iters" followed by rows');
    const panic = /^thread '[^']*'(?: \(\d+\))? panicked at [^\n]*\n([^\n]+)/m.exec(text);
    for (const r of results) if (r.status === 'failed' && panic) r.error = { message: `panicked: ${panic[1]!.trim()}` };
    return results;
  },
};

interface Table {
  target: string;
  /** The character column where the first value cell starts (the header's "fastest"). */
  fastestColumn: number;
  /** The names of the open tree levels, outermost first. */
  stack: string[];
  /** The benchmark the continuation lines belong to. */
  last: BenchmarkResult | undefined;
  /** An allocation block waiting for its count and bytes lines. */
  pending: { kind: string; lines: number } | undefined;
}

/** Reads one line of a table into `results`; true when the table ended (a blank or foreign line). */
function readLine(table: Table, line: string, n: number, path: string, results: BenchmarkResult[]): boolean {
  if (line.trim() === '') return true;
  const nameText = line.slice(0, table.fastestColumn);
  const rest = line.slice(table.fastestColumn);
  const branch = BRANCH.exec(nameText);
  if (branch) {
    const depth = branch[1]!.length / 3;
    const name = branch[3]!.trim();
    table.stack = [...table.stack.slice(0, depth), name];
    table.pending = undefined;
    const cells = rest.split('│').map((c) => c.trim());
    const id = [table.target, ...table.stack].join('/');
    if (cells.every((c) => c === '')) {
      // A group (module, function with args), or a benchmark that died before its numbers: decided by what follows.
      table.last = {
        id,
        status: 'failed',
        error: { message: 'divan printed the name and no result: the benchmark panicked (its message is on standard error; keep it with 2>&1)' },
        metrics: {},
      };
      results.push(table.last);
      return false;
    }
    // A row with numbers: its parent, pushed as a failed placeholder, was a group after all.
    dropGroups(results, id);
    const row = timeRow(cells, n, path);
    table.last = { id, params: row.params, status: 'ok', metrics: { time: row.time } };
    results.push(table.last);
    return false;
  }
  // Anything not drawn inside the tree (a panic message, the next cargo line) ends the table.
  if (!/^[│ ]/.test(line) || nameText.replace(/[│ ]/g, '') !== '') return true;
  continuation(
    table,
    rest.split('│').map((c) => c.trim()),
    n,
    path,
  );
  return false;
}

/** Removes the placeholders of the groups above `id` (a row printed with no numbers whose children have them). */
function dropGroups(results: BenchmarkResult[], id: string): void {
  for (let i = results.length - 1; i >= 0; i--) {
    const r = results[i]!;
    if (r.status === 'failed' && id.startsWith(`${r.id}/`)) results.splice(i, 1);
  }
}

const TIME: Record<string, number> = { ps: 1e-12, ns: 1e-9, µs: 1e-6, μs: 1e-6, us: 1e-6, ms: 1e-3, s: 1 };
const PREFIX: Record<string, number> = { '': 1, K: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 };

/** A benchmark row's cells: `time` is the median column; samples and iterations become params. */
function timeRow(cells: string[], n: number, path: string): { time: Metric; params: Record<string, string> } {
  if (cells.length < 6) throw new InputError(path, `expected six columns (fastest │ slowest │ median │ mean │ samples │ iters), found ${cells.length}`, n);
  const [, , median, , samples, iters] = cells as [string, string, string, string, string, string];
  const m = /^(\d+(?:\.\d+)?) (ps|ns|µs|μs|us|ms|s)$/.exec(median);
  if (!m) throw new InputError(path, `expected a divan time such as 2.709 µs, found ${JSON.stringify(median)}`, n);
  if (!/^\d+$/.test(samples) || Number(samples) < 1) throw new InputError(path, `expected a count of samples, found ${JSON.stringify(samples)}`, n);
  if (!/^\d+$/.test(iters)) throw new InputError(path, `expected a count of iterations, found ${JSON.stringify(iters)}`, n);
  return { time: buildMetric('time', 's', { value: scaleValue(Number(m[1]), TIME[m[2]!]!) }, { sourceUnit: m[2]! }), params: { samples, iters } };
}

function unitOf(text: string): string {
  return /\S+$/.exec(text)?.[0] ?? '';
}

/** A line under a benchmark (its cells from the fastest column on): a throughput, an allocation block's title, or its count or bytes line. */
function continuation(table: Table, cells: string[], n: number, path: string): void {
  const bench = table.last;
  const label = cells[0] ?? '';
  if (!bench || bench.status !== 'ok') throw new InputError(path, `a divan continuation line with no benchmark row above it: ${JSON.stringify(label)}`, n);
  const title = /^(max alloc|alloc|dealloc|grow|shrink):$/.exec(label);
  if (title) {
    table.pending = { kind: title[1]!.replace(' ', '_'), lines: 0 };
    return;
  }
  const median = cells[2] ?? '';
  if (table.pending) {
    table.pending.lines++;
    const kind = table.pending.kind;
    if (table.pending.lines === 1) {
      const count = Number(median);
      if (!/^\d+(\.\d+)?$/.test(median)) throw new InputError(path, `expected the ${kind.replace('_', ' ')} count, found ${JSON.stringify(median)}`, n);
      bench.metrics[kind === 'alloc' ? 'allocs' : `${kind}s`] = buildMetric(
        kind === 'alloc' ? 'allocs' : `${kind}s`,
        'count',
        { value: count },
        { traitsName: 'allocs' },
      );
    } else {
      bench.metrics[`${kind}_bytes`] = buildMetric(
        `${kind}_bytes`,
        'B',
        { value: amount(median, 'B', n, path).value },
        { sourceUnit: unitOf(median), traitsName: 'alloc_bytes' },
      );
      table.pending = undefined;
    }
    return;
  }
  const rate = /^(\d+(?:\.\d+)?) ([KMGT]i?)?(B|item|char)\/s$/.exec(label);
  if (!rate)
    throw new InputError(path, `cannot read divan line ${JSON.stringify(label)}; expected a throughput (1.2 GB/s, 3 Mitem/s) or an allocation block`, n);
  const kind = rate[3]!;
  const name = kind === 'B' ? 'bytes_per_second' : kind === 'item' ? 'throughput' : 'chars_per_second';
  const unit = kind === 'B' ? 'B/s' : '1/s';
  bench.metrics[name] = buildMetric(name, unit, { value: amount(median, `${kind}/s`, n, path).value }, { sourceUnit: unitOf(median) });
}

/** `2.048 KB`, `1.021 GB/s`, `64 B` → the number in base units (divan's prefixes are decimal; Ki, Mi … binary). */
function amount(text: string, unit: string, n: number, path: string): { value: number } {
  const m = /^(\d+(?:\.\d+)?) ([KMGT]i?)?(\S+)$/.exec(text);
  if (!m || m[3] !== unit) throw new InputError(path, `expected an amount in ${unit} such as "2.048 K${unit}", found ${JSON.stringify(text)}`, n);
  return { value: scaleValue(Number(m[1]), PREFIX[m[2] ?? '']!) };
}
