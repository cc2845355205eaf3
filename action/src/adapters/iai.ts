import { InputError, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';

/**
 * The console summary of iai (`cargo bench` with `iai::main!`) and of
 * iai-callgrind / gungraun (its successor's new name): one block per benchmark,
 * a name line at the margin, then indented `Label:  value` lines:
 *
 *     iai_benchmark_short                       (iai: blocks end with a blank line)
 *       Instructions:                1243 (+1.139138%)
 *       L1 Accesses:                 1580 (No change)
 *     rust_iai_callgrind::group::bench short:10 (iai-callgrind: blocks follow one another)
 *       Instructions:                1734|1650            (+5.09090%) [+1.04844x]
 *       LL Hits:                        0|0               (No change)
 *
 * Read, as exact lower-is-better counts (valgrind simulates the caches, so the
 * same binary gives the same numbers; model/metrics.ts marks them exact):
 * `Instructions` → instructions, `L1 Hits`/`L1 Accesses` → l1_hits,
 * `LL Hits`/`L2 Hits`/`L2 Accesses` → ll_hits (one name across versions, so an
 * upgrade compares like with like), `RAM Hits`/`RAM Accesses` → ram_hits,
 * `Total read+write` → total_read_write, `Estimated Cycles` → estimated_cycles.
 * Only the current value is read: the `|old` after the bar and the change in
 * brackets (`(+2.8%)`, `(No change)`, `(*********)`) are the tool's own
 * comparison, which the gate redoes. Other lines (Dr, Ge, miss rates, SysCount,
 * `Baselines:`) are left alone, as are tool sections other than callgrind and
 * cachegrind (`======= DHAT ====` …). ANSI colours are stripped; a name spread
 * over several lines (an id with a newline) is joined with spaces.
 *
 * Quirks: the tool's trailer (`Regressions:`, `Iai-Callgrind result: …`) and
 * cargo's test lines come after a blank line and are ignored. A benchmark that
 * panics stops the whole run, so the file just ends: output cut inside a block
 * (no final newline, a name with no counts after a previous block, or a last
 * block with fewer counts than the one before) is reported as truncated.
 */
export const iaiAdapter: Adapter = {
  name: 'iai',

  detect({ text }: AdapterInput) {
    const head = stripAnsi(text.slice(0, 65536));
    if (!/^[ \t]+Instructions:[ \t]+\d+[ \t]*(?:\||\(|$)/m.test(head)) {
      return { match: false, reason: 'no indented "Instructions:  <count>" line of iai / iai-callgrind' };
    }
    if (!/^\S.*\r?\n(?:[ \t]+.*\r?\n)*?[ \t]+Instructions:/m.test(head)) {
      return { match: false, reason: 'no benchmark name line before "Instructions:"' };
    }
    return { match: true };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, 'the file is empty; expected iai / iai-callgrind output (cargo bench)');
    return new BlockReader(path).read(stripAnsi(text));
  },
};

/** Summary labels (lower case) → metric names. */
const COUNTS: Record<string, string> = {
  instructions: 'instructions',
  'l1 hits': 'l1_hits',
  'l1 accesses': 'l1_hits',
  'll hits': 'll_hits',
  'l2 hits': 'll_hits',
  'l2 accesses': 'll_hits',
  'ram hits': 'ram_hits',
  'ram accesses': 'ram_hits',
  'total read+write': 'total_read_write',
  'estimated cycles': 'estimated_cycles',
};

/** Tool sections whose counts are read; DHAT, memcheck … have other metrics under other labels. */
const COUNTED_SECTIONS = new Set(['CALLGRIND', 'CACHEGRIND']);

const LABEL_LINE = /^[ \t]+([A-Za-z][A-Za-z0-9 +]*?):[ \t]*(.*)$/;
const SECTION_LINE = /^[ \t]+=+ ([A-Z][A-Z -]*?) =+[ \t]*$/;
// `1734`, `1734 (No change)`, `1734|1650   (+5.1%) [+1.05x]`, `1734|N/A  (*********)`.
const CURRENT_VALUE = /^(\d+)(?:[ \t]*\|[ \t]*\S+)?(?:[ \t]+\(.*)?[ \t]*$/;

// ANSI colour escapes (ESC [ … m), which gungraun writes when it thinks it prints to a terminal.
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

interface Block {
  id: string;
  /** 1-based line of the name's first line. */
  line: number;
  counts: Map<string, number>;
  /** Ended by a blank line or trailer rather than by the end of the file. */
  closed: boolean;
}

interface PendingName {
  lines: string[];
  line: number;
  /** An indented line came after it: the next line at the margin starts another name. */
  complete: boolean;
  /** It came straight after a block's counts, without a blank line. */
  afterBlock: boolean;
}

/** Reads the blocks line by line; see the header for the rules. */
class BlockReader {
  private readonly blocks: Block[] = [];
  private block: Block | undefined;
  private pending: PendingName | undefined;
  private counted = true;

  constructor(private readonly path: string) {}

  read(text: string): BenchmarkResult[] {
    const lines = text.split('\n');
    const endsCleanly = text.endsWith('\n');
    if (endsCleanly) lines.pop();
    lines.forEach((raw, index) => this.line(raw.replace(/\r$/, ''), index + 1));
    this.checkEnd(lines, endsCleanly);
    if (this.blocks.length === 0) {
      throw new InputError(this.path, 'no benchmark with an "Instructions:" (or cache hits) count; expected iai / iai-callgrind output from cargo bench', 1);
    }
    this.checkUnique();
    return this.blocks.map((b) => ({ id: b.id, status: 'ok', metrics: toMetrics(b.counts) }));
  }

  private line(line: string, lineNo: number): void {
    if (line.trim() === '') {
      if (this.block) this.block.closed = true;
      this.block = undefined;
      this.pending = undefined;
      return;
    }
    if (!/^[ \t]/.test(line)) {
      this.nameLine(line.trim(), lineNo);
      return;
    }
    if (this.pending) this.pending.complete = true;
    const section = SECTION_LINE.exec(line);
    if (section) {
      this.counted = COUNTED_SECTIONS.has(section[1]!.trim());
      return;
    }
    const labelled = LABEL_LINE.exec(line);
    const metric = labelled ? COUNTS[labelled[1]!.toLowerCase()] : undefined;
    if (!labelled || metric === undefined || !this.counted) return;
    const value = CURRENT_VALUE.exec(labelled[2]!.trim());
    if (!value) {
      throw new InputError(
        this.path,
        `expected a whole count after "${labelled[1]}:" (optionally "|old" and a change in brackets), found ${JSON.stringify(labelled[2]!.trim())}`,
        lineNo,
      );
    }
    const block = this.currentBlock(labelled[1]!, lineNo);
    if (block.counts.has(metric)) {
      throw new InputError(
        this.path,
        `"${labelled[1]}" appears twice for benchmark "${block.id}" (several processes or tools in one block are not read)`,
        lineNo,
      );
    }
    block.counts.set(metric, Number(value[1]));
  }

  private nameLine(text: string, lineNo: number): void {
    if (this.block || !this.pending || this.pending.complete) {
      const afterBlock = this.block !== undefined;
      this.block = undefined;
      this.pending = { lines: [text], line: lineNo, complete: false, afterBlock };
      this.counted = true;
    } else {
      this.pending.lines.push(text); // a name continued on the next line
    }
  }

  private currentBlock(label: string, lineNo: number): Block {
    if (this.block) return this.block;
    if (!this.pending) throw new InputError(this.path, `"${label}:" comes without a benchmark name line before it`, lineNo);
    this.block = { id: this.pending.lines.join(' '), line: this.pending.line, counts: new Map(), closed: false };
    this.blocks.push(this.block);
    this.pending = undefined;
    return this.block;
  }

  /** Output cut short: see the header. */
  private checkEnd(lines: string[], endsCleanly: boolean): void {
    const last = lines.length;
    if (!endsCleanly && (this.block || this.pending)) {
      throw new InputError(this.path, "the output ends in the middle of a line (truncated?); the last benchmark's counts may be cut", last);
    }
    if (this.pending?.afterBlock) {
      throw new InputError(
        this.path,
        `the output ends after the name "${this.pending.lines.join(' ')}" without its counts (truncated? a benchmark that panics stops the run)`,
        this.pending.line,
      );
    }
    const [before, final] = this.blocks.slice(-2);
    if (final && before && !final.closed && final.counts.size < before.counts.size && [...final.counts.keys()].every((k) => before.counts.has(k))) {
      throw new InputError(
        this.path,
        `the last benchmark "${final.id}" has ${final.counts.size} counts where the one before has ${before.counts.size} (truncated?)`,
        last,
      );
    }
  }

  private checkUnique(): void {
    const seen = new Map<string, number>();
    for (const b of this.blocks) {
      const first = seen.get(b.id);
      if (first !== undefined) throw new InputError(this.path, `benchmark "${b.id}" appears twice (first at line ${first}); each name must be unique`, b.line);
      seen.set(b.id, b.line);
    }
  }
}

function toMetrics(counts: Map<string, number>): Record<string, Metric> {
  const metrics: Record<string, Metric> = {};
  for (const [name, value] of counts) metrics[name] = buildMetric(name, 'count', { value });
  return metrics;
}
