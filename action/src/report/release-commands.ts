/**
 * The commands a release report suggests for bisecting a step: perf-gate's
 * own (`perf-gate bisect --good A --bad B --benchmark ID`) and plain
 * `git bisect run` with `perf-gate run --base GOOD`, which exits 1 on a
 * regression against GOOD's run (git bisect's "bad"). Benchmark ids are
 * untrusted: they are shell-quoted, so a copied command runs what it shows.
 */
import type { BisectAdvice } from '../gate/release-model.js';

/** A commit as a command names it: 12 hex digits (unambiguous in practice, short to read), anything else as it is. */
export function commandCommit(commit: string): string {
  return /^[0-9a-f]{40}$/i.test(commit) ? commit.slice(0, 12) : commit;
}

/** A word for sh: as it is when it holds only safe characters, else in single quotes. */
export function shellWord(text: string): string {
  return /^[\w./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

export interface BisectCommands {
  perfGate: string;
  gitBisect: string;
}

export function bisectCommands(advice: Pick<BisectAdvice, 'good' | 'bad' | 'benchmark'>): BisectCommands {
  const good = commandCommit(advice.good);
  const bad = commandCommit(advice.bad);
  return {
    perfGate: `perf-gate bisect --good ${good} --bad ${bad} --benchmark ${shellWord(advice.benchmark)}`,
    gitBisect: `git bisect start ${bad} ${good} && git bisect run perf-gate run --base ${good}`,
  };
}
