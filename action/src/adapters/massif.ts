import { InputError, type BenchmarkResult } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';
import { textLines } from './text-lines.js';

const FIELDS = ['time', 'mem_heap_B', 'mem_heap_extra_B', 'mem_stacks_B', 'heap_tree'] as const;

interface Snapshot {
  index: number;
  line: number;
  fields: Partial<Record<(typeof FIELDS)[number], string>>;
  /** The line of each field, for errors about its value. */
  fieldLines: Partial<Record<(typeof FIELDS)[number], number>>;
  /** Node lines of a detailed/peak heap tree, and how many the `nK:` headers promise. */
  treeLines: number;
  treeExpected: number;
}

/**
 * valgrind massif output files (`--massif-out-file`). `memory_peak` (bytes) is
 * the largest `mem_heap_B + mem_heap_extra_B + mem_stacks_B` over all snapshots,
 * which is what ms_print's peak shows. Every snapshot must be complete, and a
 * heap tree must have as many nodes as its `nK:` headers announce, so a file
 * cut short is an error. A file cut between snapshots is caught two ways:
 * massif writes the `#-----------` separator only before another snapshot, so
 * the file cannot end on one; and massif takes its `heap_tree=peak` snapshot
 * when memory is about to go down (a free, a stack shrinking), so a file
 * without one whose total ever goes down lost its peak to a cut. A file
 * without a peak snapshot is otherwise accepted, because real massif writes
 * none for a program that never allocates (`/bin/true`) or never frees
 * (checked with valgrind 3.19: `malloc` without `free` gives no peak). The id
 * is the `cmd:` line.
 */
export const massifAdapter: Adapter = {
  name: 'massif',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 4096);
    if (!/^desc:/.test(head)) return { match: false, reason: 'does not start with "desc:"' };
    if (!/^time_unit: /m.test(head) || !/^snapshot=\d+/m.test(head)) return { match: false, reason: 'no massif "time_unit:" and "snapshot=" lines' };
    return { match: true };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, 'the file is empty; expected a massif.out file (desc:, cmd:, time_unit:, snapshots)');
    const lines = textLines(text);
    let cmd: string | undefined;
    const snapshots: Snapshot[] = [];
    let current: Snapshot | undefined;
    lines.forEach((raw, i) => {
      const line = raw.replace(/\r$/, '');
      const n = i + 1;
      if (line.startsWith('cmd:')) cmd = line.slice(4).trim();
      const snap = /^snapshot=(\d+)$/.exec(line);
      if (snap) {
        current = { index: Number(snap[1]), line: n, fields: {}, fieldLines: {}, treeLines: 0, treeExpected: 0 };
        snapshots.push(current);
        return;
      }
      if (!current || line.startsWith('#') || line === '') return;
      const kv = /^(\w+)=(.*)$/.exec(line);
      if (kv) {
        if ((FIELDS as readonly string[]).includes(kv[1]!)) {
          current.fields[kv[1] as (typeof FIELDS)[number]] = kv[2]!;
          current.fieldLines[kv[1] as (typeof FIELDS)[number]] = n;
        }
        return;
      }
      const node = /^\s*n(\d+): (\d+) /.exec(line);
      if (node) {
        current.treeLines++;
        current.treeExpected += current.treeLines === 1 ? 1 + Number(node[1]) : Number(node[1]);
        return;
      }
      throw new InputError(path, `unexpected line in massif snapshot ${current.index}: ${JSON.stringify(line.slice(0, 120))}`, n);
    });
    if (snapshots.length === 0) throw new InputError(path, 'no "snapshot=N" blocks; the massif file is truncated', lines.length);
    let lastIndex = lines.length - 1;
    while (lastIndex > 0 && lines[lastIndex]!.trim() === '') lastIndex--;
    if (lines[lastIndex]!.startsWith('#')) {
      throw new InputError(
        path,
        'the file ends on a snapshot separator ("#-----------") without the snapshot after it; the massif file is truncated',
        lastIndex + 1,
      );
    }
    let peak = 0;
    let previous = 0;
    let wentDown: Snapshot | undefined;
    for (const s of snapshots) {
      const missing = FIELDS.filter((f) => s.fields[f] === undefined);
      if (missing.length > 0) throw new InputError(path, `snapshot ${s.index} lacks ${missing.join(', ')}; the massif file is truncated`, s.line);
      const tree = s.fields.heap_tree;
      if (tree !== 'empty' && tree !== 'detailed' && tree !== 'peak') {
        throw new InputError(
          path,
          `expected heap_tree=empty, detailed or peak in snapshot ${s.index}, found ${JSON.stringify(tree)} (cut short?)`,
          s.fieldLines.heap_tree,
        );
      }
      if ((tree === 'detailed' || tree === 'peak') && s.treeLines !== s.treeExpected) {
        throw new InputError(path, `snapshot ${s.index}'s heap tree has ${s.treeLines} of ${s.treeExpected} nodes; the massif file is truncated`, s.line);
      }
      const bytes = (['mem_heap_B', 'mem_heap_extra_B', 'mem_stacks_B'] as const).map((f) => {
        const v = s.fields[f]!;
        if (!/^\d+$/.test(v))
          throw new InputError(path, `expected ${f} to be a whole number of bytes in snapshot ${s.index}, found ${JSON.stringify(v)}`, s.fieldLines[f]);
        return Number(v);
      });
      const total = bytes.reduce((a, b) => a + b, 0);
      if (total < previous) wentDown ??= s;
      previous = total;
      peak = Math.max(peak, total);
    }
    if (wentDown && !snapshots.some((s) => s.fields.heap_tree === 'peak')) {
      throw new InputError(
        path,
        `no heap_tree=peak snapshot, though memory goes down at snapshot ${wentDown.index}: the massif file is truncated`,
        lines.length,
      );
    }
    return [{ id: cmd || 'massif', status: 'ok', metrics: { memory_peak: buildMetric('memory_peak', 'B', { value: peak }, { sourceUnit: 'B' }) } }];
  },
};
