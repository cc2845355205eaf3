import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

/**
 * The differential flame graph: inferno's `inferno-diff-folded` pairs the
 * two sides' folded stacks, `inferno-flamegraph` draws them as one
 * self-contained SVG (its script is inline; nothing is fetched): the head
 * side's shape, red where a frame grew, blue where it shrank. inferno is the
 * maintained Rust port of Brendan Gregg's flamegraph tools; the setup
 * installs it with cargo.
 */

export const INSTALL_INFERNO = 'cargo install --locked inferno';

export interface FlameGraphRequest {
  basePath: string;
  headPath: string;
  svgPath: string;
  title: string;
  /** What a count is: "instructions" (callgrind) or "samples" (perf). */
  countName: string;
  /** Scale the base side to the head side's total first: perf's sample counts depend on how long each side ran. */
  normalize: boolean;
  env: NodeJS.ProcessEnv;
}

/** Writes the SVG; returns null, or why it could not (inferno missing, or failing). */
export function writeDiffFlameGraph(request: FlameGraphRequest): string | null {
  const options = { env: request.env, encoding: 'utf8' as const, maxBuffer: 1024 ** 3, timeout: 120_000 };
  const diff = spawnSync('inferno-diff-folded', [...(request.normalize ? ['--normalize'] : []), request.basePath, request.headPath], options);
  if (diff.error) return `inferno-diff-folded does not run (${diff.error.message}): ${INSTALL_INFERNO}`;
  if (diff.status !== 0) return `inferno-diff-folded failed: ${diff.stderr.split('\n')[0]}`;
  const svg = spawnSync('inferno-flamegraph', ['--title', request.title, '--countname', request.countName], { ...options, input: diff.stdout });
  if (svg.error) return `inferno-flamegraph does not run (${svg.error.message}): ${INSTALL_INFERNO}`;
  if (svg.status !== 0) return `inferno-flamegraph failed: ${svg.stderr.split('\n')[0]}`;
  writeFileSync(request.svgPath, svg.stdout);
  return null;
}
