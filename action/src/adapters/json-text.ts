import { parse as parseTolerant, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
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
  let value: unknown;
  try {
    value = JSON.parse(text);
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
  checkDepth(value, path);
  return value;
}

/** Deeper than any harness nests its output (Julia's BenchmarkGroups, the deepest, use about ten levels). */
export const MAX_JSON_DEPTH = 256;

/**
 * Refuses JSON nested deeper than MAX_JSON_DEPTH. JSON.parse accepts any
 * depth, but every adapter walks the value recursively, and 100,000 nested
 * arrays would overflow the stack there: an internal error instead of a
 * message. Iterative, so the check itself cannot overflow.
 */
function checkDepth(root: unknown, path: string, line?: number): void {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_JSON_DEPTH)
      throw new InputError(
        path,
        `the JSON is nested more than ${MAX_JSON_DEPTH} levels deep; no harness writes that, so the file is not benchmark output`,
        line,
      );
    for (const child of Array.isArray(value) ? value : Object.values(value)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
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
    let value: unknown;
    try {
      value = JSON.parse(row);
    } catch {
      const last = rows.slice(index + 1).every((r) => r.trim() === '');
      throw new InputError(path, last ? messages.cutOff : messages.invalid, index + 1);
    }
    checkDepth(value, path, index + 1);
    out.push({ value, line: index + 1 });
  });
  return out;
}

/** Where a value sits inside a JSON document: property names and array indexes, outermost first. */
export type JsonPath = readonly (string | number)[];

/**
 * Errors of a JSON adapter, pointed at the offending token. `lineOf(at)` is the
 * 1-based line of the value at `at`; when that value is absent (a missing key,
 * an index past the end) it is the line of the deepest enclosing value that
 * exists, i.e. the object that lacks the key. `error(at, detail)` is the
 * InputError naming file, that line and the key path (`results[0].times[3]`).
 *
 * Lines come from the document's syntax tree, never from searching the text
 * for a key: a search counts keys of the same name elsewhere (a missing
 * "command" in results[0] would be found in results[1]) and knows nothing of
 * nesting. The tree is built on first use, i.e. only when an error is being
 * reported, so a good file is parsed once, natively.
 */
export interface JsonErrors {
  lineOf(at: JsonPath): number;
  error(at: JsonPath, detail: string): InputError;
}

export function jsonErrors(text: string, file: string): JsonErrors {
  let root: Node | undefined;
  const lineOf = (at: JsonPath): number => {
    root ??= parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
    if (!root) return 1;
    return lineOfOffset(text, deepestNode(root, at).offset);
  };
  return {
    lineOf,
    error: (at, detail) => new InputError(file, detail, lineOf(at), keyOfPath(at)),
  };
}

/** The node at `at`, or the deepest ancestor that exists. Indexes may come as digit strings (JSON Pointer, ajv). */
function deepestNode(root: Node, at: JsonPath): Node {
  let node = root;
  for (const segment of at) {
    let next: Node | undefined;
    if (node.type === 'array') {
      const index = typeof segment === 'number' ? segment : /^\d+$/.test(segment) ? Number(segment) : -1;
      next = index >= 0 ? node.children?.[index] : undefined;
    } else if (node.type === 'object') {
      // The last property of a name wins, as in JSON.parse.
      const property = node.children?.filter((p) => p.children?.[0]?.value === String(segment)).pop();
      next = property?.children?.[1];
    }
    if (!next) break;
    node = next;
  }
  return node;
}

/** `['results', 0, 'times', 3]` → `results[0].times[3]`; the root → undefined. */
export function keyOfPath(at: JsonPath): string | undefined {
  const key = at.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
  return key === '' ? undefined : key;
}

/** True for a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Turns the bare non-finite numbers some tools write (Google Benchmark's
 * `NaN`, `-NaN`, `Infinity`; Python's json `NaN`, `Infinity`, `-Infinity`),
 * which are not JSON, into the strings "NaN", "Infinity" and "-Infinity" that
 * JSON.parse accepts, leaving string contents alone and every value on its line.
 */
export function quoteNonFinite(text: string): string {
  // The string form is the unrolled loop `"[^"\\]*(?:\\.[^"\\]*)*"`: the plainer `"(?:[^"\\]|\\.)*"` backtracks per character and overflows V8's stack on a 10 MB string.
  return text.replace(/"[^"\\]*(?:\\.[^"\\]*)*"|-?\b(?:NaN|Infinity)\b/g, (token) => {
    if (token.startsWith('"')) return token;
    return token === 'Infinity' ? '"Infinity"' : token === '-Infinity' ? '"-Infinity"' : '"NaN"';
  });
}
