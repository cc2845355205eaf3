import { InputError, type FoldedStacks } from '../../model/index.js';

/**
 * Folded stacks ("main;parse;scan 1234": caller first, then the cost) from a
 * callgrind file recorded with `--separate-callers=N`. With that option
 * callgrind names each function by its call chain (`scan'parse'main`, the
 * callee first), so the self cost it records under a name is the self cost
 * of that stack: exactly what a flame graph draws. The cost is the first
 * event of the file (Ir, instructions, by default). Pure: text in.
 *
 * The format (valgrind's docs, "Callgrind Format Specification"): `fn=`
 * opens a function, whose cost lines (positions, then events) are its self
 * cost, except the one line after each `calls=`, which is the inclusive cost
 * of that call and belongs to the callee. Names may be compressed: `(12)
 * name` defines id 12, `(12)` refers to it.
 *
 * Each stack starts with the process's program (the first word of the file's
 * `cmd:` line, without its folder), as perf's stacks start with the command
 * name: a harness's processes (cargo, then the benchmark) stay apart.
 */

/** The name a `fn=`/`cfn=` value stands for, defining or using its compressed id. */
function nameOf(value: string, names: Map<string, string>): string {
  const m = /^\((\d+)\)(?:\s+(.*))?$/.exec(value.trim());
  if (!m) return value.trim();
  if (m[2] !== undefined) {
    names.set(m[1]!, m[2]);
    return m[2];
  }
  return names.get(m[1]!) ?? `(${m[1]})`;
}

/** A context name (`scan'parse'main`) as a stack, outermost first (`main;parse;scan`); ";" inside a name would split a frame, so it becomes ":". */
function stackOf(context: string): string {
  return context
    .split("'")
    .map((frame) => frame.replace(/;/g, ':'))
    .reverse()
    .join(';');
}

/** Adds each function's self cost in one callgrind file to `into` (several files, one per process, add up). */
export function addCallgrindStacks(text: string, path: string, into: FoldedStacks = new Map()): FoldedStacks {
  const names = new Map<string, string>();
  let positions = 1;
  let events: string[] | undefined;
  let current: string | undefined;
  let program = 'unknown';
  let callCostNext = false;
  const lines = text.split('\n');
  lines.forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    if (line.startsWith('cmd:')) program = (line.slice(4).trim().split(/\s+/)[0] ?? '').split('/').pop() || 'unknown';
    else if (line.startsWith('positions:')) positions = line.slice(10).trim().split(/\s+/).length;
    else if (line.startsWith('events:')) events = line.slice(7).trim().split(/\s+/);
    else if (line.startsWith('fn=')) current = `${program.replace(/;/g, ':')};${stackOf(nameOf(line.slice(3), names))}`;
    else if (line.startsWith('cfn=')) nameOf(line.slice(4), names);
    else if (line.startsWith('calls=')) callCostNext = true;
    else if (/^[0-9+*-]/.test(line)) {
      if (callCostNext) {
        callCostNext = false;
        return;
      }
      if (current === undefined) return;
      const fields = line.trim().split(/\s+/);
      const cost = fields[positions];
      if (cost === undefined) return;
      if (!/^\d+$/.test(cost)) throw new InputError(path, `expected a whole cost after ${positions} position field(s), found ${JSON.stringify(line)}`, i + 1);
      into.set(current, (into.get(current) ?? 0) + Number(cost));
    }
  });
  if (events === undefined) throw new InputError(path, 'no "events:" line; expected a callgrind output file', 1);
  return into;
}

/** The folded stacks as text, one "stack cost" line each, sorted (what inferno and flamegraph.pl read). */
export function foldedText(stacks: FoldedStacks): string {
  return [...stacks]
    .filter(([, cost]) => cost > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([stack, cost]) => `${stack} ${cost}\n`)
    .join('');
}

/** Reads folded text back (the perf path's `inferno-collapse-perf` output). */
export function parseFolded(text: string): FoldedStacks {
  const stacks: FoldedStacks = new Map();
  for (const line of text.split('\n')) {
    const m = /^(.*)\s(\d+)$/.exec(line.trim());
    if (m) stacks.set(m[1]!, (stacks.get(m[1]!) ?? 0) + Number(m[2]));
  }
  return stacks;
}
