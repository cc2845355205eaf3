/**
 * The 1-based line of every `"key":` in a JSON text, in order, found in one
 * pass: per-record error lines for large files without rescanning the text
 * for each record.
 */
export function linesOfKey(text: string, key: string): number[] {
  const lines: number[] = [];
  const needle = new RegExp(`"${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\s*:|\\n`, 'g');
  let line = 1;
  let match: RegExpExecArray | null;
  while ((match = needle.exec(text)) !== null) {
    if (match[0] === '\n') line++;
    else lines.push(line);
  }
  return lines;
}
