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
