/**
 * The lines of a line-oriented harness output, as every text adapter reads
 * them: split on `\n`, each without its trailing whitespace (`\r` of CRLF
 * files, and the spaces an editor, a terminal capture or a log collector
 * leaves). No harness means anything by trailing whitespace, and the
 * adapters' line patterns end in `$`: one trailing space used to make a
 * report line unreadable. Line numbers stay those of the file (index + 1).
 */
export function textLines(text: string, limit?: number): string[] {
  return text.split('\n', limit).map((line) => line.trimEnd());
}
