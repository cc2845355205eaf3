import { basename, extname } from 'node:path';
import { InputError } from '../model/index.js';
import { CUSTOM_JSON_HINT, looksLikeCustomJson } from './custom-json.js';
import { parseJsonLines, parseJsonText } from './json-text.js';

/** Extensions of structured results: broken syntax in one of these is a crashed harness, not someone's notes. */
const STRUCTURED = new Set(['.json', '.jsonl', '.ndjson']);
/** Extensions (and valgrind's `massif.out.<pid>`) harnesses write text or XML results under. */
const RESULTS = new Set([...STRUCTURED, '.xml', '.csv', '.txt', '.out', '.output']);

function looksLikeResults(path: string): boolean {
  return RESULTS.has(extname(path).toLowerCase()) || /\.out\.\d+$/.test(basename(path));
}

/**
 * Decides about a file inside an input folder that no format recognised:
 * returns why it is skipped, or throws an InputError naming it when it looks
 * like a harness output that is broken. A harness that crashed leaves an
 * empty or truncated file, and skipping it would turn a crash into "fewer
 * benchmarks, all passing". The rule (documented in docs/running-suites.md):
 *
 * - a binary file (a NUL byte) is skipped, unless its extension says JSON;
 * - an empty file is an error when its extension is a results one (`.json`,
 *   `.jsonl`, `.ndjson`, `.xml`, `.csv`, `.txt`, `.out`, `.output`, or
 *   valgrind's `*.out.<pid>`), else skipped;
 * - a `.json`/`.jsonl`/`.ndjson` file that is not valid JSON is an error, at
 *   the line where it breaks; valid JSON that no format knows (a
 *   package.json) is skipped;
 * - any other text is skipped: a README, a build log.
 *
 * `.log` is not a results extension: logs are often empty (a silent build),
 * and perf-gate's own output folder holds them beside the results.
 */
export function whySkipped(path: string, text: string): string {
  const structured = STRUCTURED.has(extname(path).toLowerCase());
  if (text.includes('\u0000') && !structured) return 'binary file';
  if (text.trim() === '') {
    if (!looksLikeResults(path)) return 'empty file';
    throw new InputError(path, 'the file is empty; a harness that crashed before writing its results leaves an empty file (remove it, or rerun the harness)');
  }
  if (structured) {
    if (extname(path).toLowerCase() === '.json') parseJsonText(text, path, 'benchmark results (a JSON file in an input folder)');
    else
      parseJsonLines(text, path, {
        cutOff: 'the last line is cut off (truncated?); expected one JSON value per line',
        invalid: 'invalid JSON; expected one JSON value per line',
      });
    // Never detected, so the listed reason must say which --format reads it.
    if (looksLikeCustomJson(text)) return CUSTOM_JSON_HINT;
    return 'valid JSON, but no format recognised it';
  }
  return 'no format recognised it';
}
