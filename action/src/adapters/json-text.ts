import { InputError, lineOfOffset } from '../model/index.js';

/**
 * Parses a harness's JSON output. Errors name the file and line, and say
 * "truncated" when the text simply stops — the usual sign of a harness killed
 * mid-write — rather than V8's "Unexpected end of JSON input".
 */
export function parseJsonText(text: string, path: string, what: string): unknown {
  if (text.trim() === '') throw new InputError(path, `the file is empty; expected ${what}`);
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const lastLine = lineOfOffset(text, text.length);
    if (/end of JSON input|Unterminated string|Expected .* after|Unexpected end/i.test(message) && !/position \d+ \(line/.test(message)) {
      const at = positionOf(message);
      if (at === undefined || at >= text.trimEnd().length - 1) {
        return fail(path, lastLine, `the JSON ends early (truncated?); expected ${what}`);
      }
    }
    const at = positionOf(message);
    const line = at === undefined ? undefined : lineOfOffset(text, at);
    return fail(path, line, `invalid JSON (${message.replace(/^JSON\.parse: /, '').replace(/ in JSON at position \d+.*$/, '')}); expected ${what}`);
  }
}

function positionOf(message: string): number | undefined {
  const m = /position (\d+)/.exec(message);
  return m ? Number(m[1]) : undefined;
}

function fail(path: string, line: number | undefined, detail: string): never {
  throw new InputError(path, detail, line);
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
