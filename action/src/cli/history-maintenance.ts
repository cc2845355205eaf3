/**
 * The `perf-gate history` subcommands that look after the store itself:
 * verify (read every file, list the ones that do not decode), remove (one
 * run, or a damaged file), compact (past months into one file each). A
 * damaged file never stops the readers (they skip it and say so); these are
 * how a team finds and clears it.
 */
import { InputError } from '../model/index.js';
import { EXIT, parsePath, runsNamed, type CliContext, type HistoryStore, type UnreadableFile } from '../pipeline/index.js';

/** `history verify`: exit 0 when every file decodes, 2 when one does not (each named, with the command that removes it). */
export async function verifyHistory(history: HistoryStore, testbed: string | undefined, ctx: CliContext): Promise<number> {
  const result = await history.verify(testbed !== undefined ? { testbed } : {});
  ctx.stdout(
    `perf-gate: read ${result.files} file(s) holding ${result.runs} run(s) in ${history.description}: ${result.unreadable.length === 0 ? 'all readable' : `${result.unreadable.length} unreadable`}\n`,
  );
  for (const f of result.unreadable) ctx.stdout(unreadableLine(f));
  return result.unreadable.length === 0 ? EXIT.pass : EXIT.unusable;
}

/** `history remove RUN|FILE...`: a run id (or a commit with one run), or a store file as verify names it. */
export async function removeFromHistory(history: HistoryStore, words: readonly string[], ctx: CliContext): Promise<number> {
  const files = words.filter((w) => parsePath(w) !== undefined);
  const runWords = words.filter((w) => parsePath(w) === undefined);
  const listed = runWords.length > 0 ? await history.list() : [];
  const entries = runWords.flatMap((word) => {
    const named = runsNamed(listed, word);
    if (named.length === 0)
      throw new InputError(
        history.description,
        `no run has the id or commit ${JSON.stringify(word)}, and it is not a file of the history (<testbed>/<yyyy>/<mm>/…); perf-gate history list shows the runs, history verify the damaged files`,
      );
    if (named.length > 1 && named[0]!.runId !== word)
      throw new InputError(history.description, `${named.length} runs match ${JSON.stringify(word)}; give their run ids (perf-gate history list)`);
    return named;
  });
  const removedRuns = entries.length > 0 ? await history.remove(entries) : [];
  const removedFiles = files.length > 0 ? await history.removeFiles(files) : [];
  for (const e of removedRuns) ctx.stdout(`perf-gate: removed run ${e.runId} of ${e.commit.slice(0, 12)} on ${e.testbed}\n`);
  for (const f of removedFiles) ctx.stdout(`perf-gate: removed ${f}\n`);
  const notThere = files.filter((f) => !removedFiles.includes(f));
  if (notThere.length > 0) throw new InputError(history.description, `holds no file ${notThere.join(', ')}`);
  return EXIT.pass;
}

/** `history compact [--before DATE]`: every month before the month of DATE (default: this month) into one file per testbed. */
export async function compactHistory(history: HistoryStore, before: Date, ctx: CliContext): Promise<number> {
  const months = await history.compact({ before });
  if (months.length === 0) ctx.stdout(`perf-gate: nothing to compact before ${before.toISOString().slice(0, 7)} in ${history.description}\n`);
  for (const m of months) ctx.stdout(`perf-gate: compacted ${m.removed.length} run file(s) of ${m.testbed} in ${m.month} into one file of ${m.runs} run(s)\n`);
  return EXIT.pass;
}

/** Warnings for the files a reading command skipped (standard error: the report on standard output stays whole). */
export function printSkipped(history: HistoryStore, ctx: CliContext): void {
  for (const f of history.unreadable()) ctx.stderr(`perf-gate: warning: skipped ${unreadableLine(f).trimStart()}`);
}

function unreadableLine(f: UnreadableFile): string {
  const runs = f.runIds.length > 0 ? ` (run${f.runIds.length === 1 ? '' : 's'} ${f.runIds.join(', ')})` : '';
  // A bad run inside a month file is removed by its id: removing the file would take the month's good runs with it.
  const target = f.runsOnly ? f.runIds.join(' ') : f.file;
  return `  ${f.file}${runs}: ${f.problem}; remove it with: perf-gate history remove ${target}\n`;
}
