import { InputError, type BenchmarkResult } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';

const FIELDS = ['time', 'mem_heap_B', 'mem_heap_extra_B', 'mem_stacks_B', 'heap_tree'] as const;

interface Snapshot {
  index: number;
  line: number;
  fields: Partial<Record<(typeof FIELDS)[number], string>>;
  /** Node lines of a detailed/peak heap tree, and how many the `nK:` headers promise. */
  treeLines: number;
  treeExpected: number;
}

/**
 * valgrind massif output files (`--massif-out-file`). `memory_peak` (bytes) is
 * the largest `mem_heap_B + mem_heap_extra_B + mem_stacks_B` over all snapshots,
 * which is what ms_print's peak shows; the `heap_tree=peak` snapshot is not
 * required, because a program that never allocates has none (its peak is 0).
 * Every snapshot must be complete, and a heap tree must have as many nodes as
 * its `nK:` headers announce, so a file cut short is an error. The id is the
 * `cmd:` line.
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
    const lines = text.split('\n');
    let cmd: string | undefined;
    const snapshots: Snapshot[] = [];
    let current: Snapshot | undefined;
    lines.forEach((raw, i) => {
      const line = raw.replace(/\r$/, '');
      const n = i + 1;
      if (line.startsWith('cmd:')) cmd = line.slice(4).trim();
      const snap = /^snapshot=(\d+)$/.exec(line);
      if (snap) {
        current = { index: Number(snap[1]), line: n, fields: {}, treeLines: 0, treeExpected: 0 };
        snapshots.push(current);
        return;
      }
      if (!current || line.startsWith('#') || line === '') return;
      const kv = /^(\w+)=(.*)$/.exec(line);
      if (kv) {
        if ((FIELDS as readonly string[]).includes(kv[1]!)) current.fields[kv[1] as (typeof FIELDS)[number]] = kv[2]!;
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
    let peak = 0;
    for (const s of snapshots) {
      const missing = FIELDS.filter((f) => s.fields[f] === undefined);
      if (missing.length > 0) throw new InputError(path, `snapshot ${s.index} lacks ${missing.join(', ')}; the massif file is truncated`, s.line);
      const tree = s.fields.heap_tree;
      if ((tree === 'detailed' || tree === 'peak') && s.treeLines !== s.treeExpected) {
        throw new InputError(path, `snapshot ${s.index}'s heap tree has ${s.treeLines} of ${s.treeExpected} nodes; the massif file is truncated`, s.line);
      }
      const bytes = ['mem_heap_B', 'mem_heap_extra_B', 'mem_stacks_B'].map((f) => {
        const v = s.fields[f as (typeof FIELDS)[number]]!;
        if (!/^\d+$/.test(v)) throw new InputError(path, `expected ${f} to be a whole number of bytes in snapshot ${s.index}, found ${JSON.stringify(v)}`, s.line);
        return Number(v);
      });
      peak = Math.max(peak, bytes.reduce((a, b) => a + b, 0));
    }
    return [{ id: cmd || 'massif', status: 'ok', metrics: { memory_peak: buildMetric('memory_peak', 'B', { value: peak }, { sourceUnit: 'B' }) } }];
  },
};
