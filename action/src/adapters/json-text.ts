import { parse as parseTolerant, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { InputError, lineOfOffset } from '../model/index.js';

/**
 * Parses a harness's JSON output. Errors name the file and line, and say
 * "truncated" when the text simply stops — the usual sign of a harness killed
 * mid-write — rather than V8's "Unexpected end of JSON input". V8's messages
 * carry no position on Node 20, so the error is located with jsonc-parser's
 * scanner, only when JSON.parse has already failed (the fast path stays native).
 */
export function parseJsonText(text: string, path: string, what: string): unknown {
  if (text.trim() === '') throw new InputError(path, `the file is empty; expected ${what}`);
  try {
    return JSON.parse(text);
  } catch (error) {
    const native = error instanceof Error ? error.message : String(error);
    const errors: ParseError[] = [];
    parseTolerant(text, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
    const first = errors[0];
    const end = text.trimEnd().length;
    if (first && (first.offset >= end || /EndOfFile|UnexpectedEnd/.test(printParseErrorCode(first.error)))) {
      throw new InputError(path, `the JSON ends early (truncated?); expected ${what}`, lineOfOffset(text, end));
    }
    const line = first ? lineOfOffset(text, first.offset) : undefined;
    const found = first ? JSON.stringify(text.slice(first.offset, first.offset + Math.max(1, Math.min(first.length, 20)))) : undefined;
    const detail = first ? `${describeCode(printParseErrorCode(first.error))} at ${found}` : native.replace(/^JSON\.parse: /, '');
    throw new InputError(path, `invalid JSON (${detail}); expected ${what}`, line);
  }
}

/** "CommaExpected" → "comma expected". */
function describeCode(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** One value of a JSON-lines stream and its 1-based line. */
export interface JsonLine {
  value: unknown;
  line: number;
}

/**
 * Parses a JSON-lines stream (one value per line; blank lines skipped). A bad
 * line with nothing after it is a harness killed mid-write and is called
 * truncation (`cutOff`); a bad line before others is corruption (`invalid`).
 */
export function parseJsonLines(text: string, path: string, messages: { cutOff: string; invalid: string }): JsonLine[] {
  const rows = text.split('\n');
  const out: JsonLine[] = [];
  rows.forEach((row, index) => {
    if (row.trim() === '') return;
    try {
      out.push({ value: JSON.parse(row), line: index + 1 });
    } catch {
      const last = rows.slice(index + 1).every((r) => r.trim() === '');
      throw new InputError(path, last ? messages.cutOff : messages.invalid, index + 1);
    }
  });
  return out;
}

/** Finds the 1-based line of the n-th (0-based) occurrence of a JSON key, for per-record errors. */
export function lineOfKeyOccurrence(text: string, key: string, occurrence: number): number | undefined {
  const needle = new RegExp(`"${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\s*:`, 'g');
  let match: RegExpExecArray | null;
  let seen = 0;
  while ((match = needle.exec(text)) !== null) {
    if (seen === occurrence) return lineOfOffset(text, match.index);
    seen++;
  }
  return undefined;
}

/** True for a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
