import { readFileSync } from 'node:fs';

/** The README's `npm run perf-gate -- …` commands from its sh blocks (continuation lines joined), as argument lists. */
export function readmePerfGateCommands(readme: string): string[][] {
  return [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => m[1]!.replace(/\\\n\s*/g, ' ').split('\n'))
    .filter((l) => l.startsWith('npm run perf-gate -- '))
    .map((l) => l.slice('npm run perf-gate -- '.length).trim().split(/\s+/));
}

/** An example's perf-gate.yml without its leading comment: what its README shows. */
export function configBody(path: string): string {
  return readFileSync(path, 'utf8').replace(/^(#.*\n)+/, '');
}

/** A README command with the environment assignments written before it (`WORDFREQ_SLOW=1 npm run perf-gate -- …`). */
export interface ReadmeRun {
  env: Record<string, string>;
  args: string[];
}

/** The README's perf-gate commands, each with the `NAME=value` assignments before it. */
export function readmePerfGateRuns(readme: string): ReadmeRun[] {
  return [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => m[1]!.replace(/\\\n\s*/g, ' ').split('\n'))
    .map((line) => /^((?:[A-Z_][A-Z0-9_]*=\S+ )*)npm run perf-gate -- (.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({
      env: Object.fromEntries(
        m[1]!
          .trim()
          .split(' ')
          .filter(Boolean)
          .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
      ),
      args: m[2]!.trim().split(/\s+/),
    }));
}
