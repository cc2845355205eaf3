import type { FoldedStacks, FunctionGrowthRow } from '../model/index.js';

/**
 * Which functions got more expensive: each function's inclusive cost (its
 * own and its callees', counted once per stack however often it recurses)
 * as a share of its process's total on each side, and how much that share
 * grew. Shares, not
 * raw counts: perf's sample counts follow how long each side ran, and a
 * harness that runs for a fixed time (criterion's --profile-time) does more
 * iterations of the faster side; a function's share of the work is what both
 * sides agree on. A slowdown spread evenly over everything moves no share:
 * then no single function is to blame, and the table says so. Pure: folded
 * stacks in, rows out.
 */

/** Function → inclusive cost. */
export function inclusiveCosts(stacks: FoldedStacks): Map<string, number> {
  const costs = new Map<string, number>();
  for (const [stack, cost] of stacks) {
    for (const frame of new Set(stack.split(';'))) costs.set(frame, (costs.get(frame) ?? 0) + cost);
  }
  return costs;
}

/** The total cost of a side. */
export function totalCost(stacks: FoldedStacks): number {
  let total = 0;
  for (const cost of stacks.values()) total += cost;
  return total;
}

/**
 * The smallest growth of a share shown, in points of the total: callgrind's
 * instruction counts repeat exactly, so 1 point is real; perf's samples of a
 * few seconds scatter by about a point between identical runs (measured:
 * docs/profiling.md), so it takes 3.
 */
export const GROWTH_THRESHOLD = { callgrind: 0.01, perf: 0.03 } as const;

/** (caller, callee) → the inclusive cost of the callee under that caller, each stack counted once per edge. */
function edgeCosts(stacks: FoldedStacks): Map<string, number> {
  const costs = new Map<string, number>();
  for (const [stack, cost] of stacks) {
    const frames = stack.split(';');
    const edges = new Set<string>();
    for (let i = 1; i < frames.length; i++) edges.add(`${frames[i - 1]}\u0000${frames[i]}`);
    for (const edge of edges) costs.set(edge, (costs.get(edge) ?? 0) + cost);
  }
  return costs;
}

/** A process below this share of a side's total on both sides is left out of the table (its stacks stay in the files). */
const MIN_PROCESS_SHARE = 0.05;

/** A function whose growth one callee carries almost whole (95 %) is only on the way to it: main, a dispatcher. */
const PASS_THROUGH = 0.95;

/** Each key's share of `total`. */
function shares(costs: Map<string, number>, total: number): Map<string, number> {
  return new Map([...costs].map(([key, cost]) => [key, cost / total]));
}

/** The stacks of each process (their first frame: perf's command name, callgrind's program). */
function byProcess(stacks: FoldedStacks): Map<string, FoldedStacks> {
  const processes = new Map<string, FoldedStacks>();
  for (const [stack, cost] of stacks) {
    const process = stack.slice(0, stack.includes(';') ? stack.indexOf(';') : stack.length);
    const own = processes.get(process) ?? new Map<string, number>();
    own.set(stack, cost);
    processes.set(process, own);
  }
  return processes;
}

/** The rows of one process: each function's share of that process's total on each side. */
function processGrowth(process: string, base: FoldedStacks, head: FoldedStacks, threshold: number): FunctionGrowthRow[] {
  const [baseTotal, headTotal] = [totalCost(base), totalCost(head)];
  if (baseTotal === 0 || headTotal === 0) return [];
  const before = inclusiveCosts(base);
  const after = inclusiveCosts(head);
  const [shareBefore, shareAfter] = [shares(before, baseTotal), shares(after, headTotal)];
  const [edgesBefore, edgesAfter] = [shares(edgeCosts(base), baseTotal), shares(edgeCosts(head), headTotal)];
  const childGrowth = new Map<string, number>();
  for (const edge of new Set([...edgesBefore.keys(), ...edgesAfter.keys()])) {
    const [caller] = edge.split('\u0000');
    const grown = (edgesAfter.get(edge) ?? 0) - (edgesBefore.get(edge) ?? 0);
    childGrowth.set(caller!, Math.max(childGrowth.get(caller!) ?? 0, grown));
  }
  const rows: FunctionGrowthRow[] = [];
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const grown = (shareAfter.get(name) ?? 0) - (shareBefore.get(name) ?? 0);
    if (grown < threshold || name === process) continue;
    if ((childGrowth.get(name) ?? 0) >= PASS_THROUGH * grown) continue;
    rows.push({
      function: name,
      process,
      before: before.get(name) ?? 0,
      after: after.get(name) ?? 0,
      shareBefore: shareBefore.get(name) ?? 0,
      shareAfter: shareAfter.get(name) ?? 0,
      growth: grown,
    });
  }
  return rows;
}

/**
 * The functions whose share of their process's total grew by at least
 * `threshold`, most first, at most `limit`. Per process: a harness's own
 * process (cargo, a shell) does fixed work while a benchmark that runs for a
 * fixed time does more or fewer iterations, so shares of the whole would
 * move with the iteration count. A function whose growth is almost all one
 * callee's (main above the culprit) is left out, so the top row names where
 * the cost went, not the path to it.
 */
export function functionGrowth(base: FoldedStacks, head: FoldedStacks, options: { threshold: number; limit?: number }): FunctionGrowthRow[] {
  const [bases, heads] = [byProcess(base), byProcess(head)];
  const [baseTotal, headTotal] = [totalCost(base), totalCost(head)];
  // A process of a few samples (a shell, a version probe) has shares that jump by tens of points between identical runs, and holds no cost worth naming.
  const matters = (process: string): boolean =>
    totalCost(bases.get(process) ?? new Map()) >= MIN_PROCESS_SHARE * baseTotal || totalCost(heads.get(process) ?? new Map()) >= MIN_PROCESS_SHARE * headTotal;
  const rows = [...new Set([...bases.keys(), ...heads.keys()])]
    .filter(matters)
    .flatMap((process) => processGrowth(process, bases.get(process) ?? new Map(), heads.get(process) ?? new Map(), options.threshold));
  return rows.sort((p, q) => q.growth - p.growth || (p.function < q.function ? -1 : 1)).slice(0, options.limit ?? 10);
}

/**
 * The stacks worth keeping in the files: those of at least 1 / 10,000 of
 * the total. The flame graph cannot draw narrower ones (inferno leaves out
 * frames under 0.1 pixel of its 1,200), and a profile of a whole harness
 * (cargo starting the benchmark) has hundreds of thousands of them, tens of
 * megabytes of folded text.
 */
export function prunedStacks(stacks: FoldedStacks, fraction = 1e-4): FoldedStacks {
  const least = totalCost(stacks) * fraction;
  return new Map([...stacks].filter(([, cost]) => cost >= least));
}
