/**
 * What Ruby's benchmark libraries leave behind when a benchmarked block
 * raises. Both print the label before running the block and the newline only
 * after it, and an uncaught exception ends the script, so the output stops on
 * the label: alone on a last line without a newline (stdout by itself), or
 * followed on that line by Ruby's error report when stderr goes to the same file:
 *
 *     times:  bench.rb:23:in `block (2 levels) in <main>': boom (RuntimeError)
 *
 * (Ruby 3.4 quotes the method with ' instead of `.)
 */
// The file name starts a word (the lookbehind): tried from every character of a long line, `[^\s`']*?` alone made a 10 MB line quadratic.
const RUBY_ERROR = /(?:(?<![^\s`'])[^\s`']*?\.rb|-e|\(irb\)):\d+:in [`'].*?': (.*)$/;

/** Where Ruby's error report starts in a line, and its message (`boom (RuntimeError)`). */
export function rubyErrorIn(line: string): { at: number; message: string } | undefined {
  const m = RUBY_ERROR.exec(line);
  return m ? { at: m.index, message: m[1]!.trim() } : undefined;
}

/**
 * The label a run stopped on, when the output ends inside a benchmark: the last
 * line, if the text does not end with a newline. Undefined otherwise.
 */
export function labelLeftOpen(text: string): { label: string; line: number } | undefined {
  if (text.endsWith('\n')) return undefined;
  const lines = text.split('\n');
  const label = lines[lines.length - 1]!.replace(/\r$/, '').trim();
  return label === '' ? undefined : { label, line: lines.length };
}
