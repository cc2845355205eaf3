/**
 * The one error for unusable input (harness output, config, budgets, baselines).
 * Printed as "file:line: message" and mapped to exit status 2 by the CLI.
 */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(
    /** The file (or input name) that is wrong. */
    readonly file: string,
    /** What is wrong and what was expected, e.g. "expected a number of seconds, found \"abc\"". */
    readonly detail: string,
    /** 1-based line, when known. */
    readonly line?: number,
    /** Key path inside the file (e.g. "benchmarks.scan.time.max"), when known. */
    readonly key?: string,
  ) {
    super(`${file}${line !== undefined ? `:${line}` : ''}: ${key ? `${key}: ` : ''}${detail}`);
  }
}

/** Finds the 1-based line of a character offset in a text (for JSON and YAML errors). */
export function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
