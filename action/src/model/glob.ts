/**
 * Globs on benchmark ids: `*` any text (including `/`), `?` one character,
 * everything else literal. Matching cannot backtrack: the pattern is split at
 * its stars into pieces, the first piece must match at the start, the last at
 * the end, and each piece between is taken at its leftmost place after the
 * previous one (taking it any later can only leave less room for the rest), so
 * one test costs at most O(id length × pattern length) whatever the input. A
 * regular expression `^.*…$` built from the same glob backtracks
 * exponentially on ids like `/[n=` repeated (a pull request controls the ids).
 */

export interface Glob {
  /** The glob as written. */
  readonly pattern: string;
  /** The literal text every matching id starts with (up to the first wildcard). */
  readonly prefix: string;
  /** The literal text every matching id ends with (after the last wildcard). */
  readonly suffix: string;
  test(id: string): boolean;
}

/** The longest benchmark id perf-gate accepts (characters): a bound on matching and on every table. */
export const MAX_BENCHMARK_ID_LENGTH = 4096;

export function compileGlob(pattern: string): Glob {
  // Code units, not code points, as the regular expressions before it: `?` is one UTF-16 unit.
  const pieces = pattern.split('*');
  const starred = pieces.length > 1;
  const first = pieces[0] as string;
  const last = pieces[pieces.length - 1] as string;
  const wild = first.indexOf('?');
  const lastWild = last.lastIndexOf('?');
  return {
    pattern,
    prefix: wild === -1 ? first : first.slice(0, wild),
    suffix: lastWild === -1 ? last : last.slice(lastWild + 1),
    test: (id) => matchPieces(id, pieces, starred),
  };
}

const QUESTION = 63; // '?'

/** Does `piece` (literal characters and `?`) match `text` at `at`? */
function pieceAt(text: string, at: number, piece: string): boolean {
  if (at + piece.length > text.length) return false;
  for (let i = 0; i < piece.length; i++) {
    const p = piece.charCodeAt(i);
    if (p !== QUESTION && p !== text.charCodeAt(at + i)) return false;
  }
  return true;
}

/** The leftmost place in text[from, end) where `piece` matches, or −1. */
function findPiece(text: string, from: number, end: number, piece: string): number {
  if (!piece.includes('?')) {
    const i = text.indexOf(piece, from);
    return i !== -1 && i + piece.length <= end ? i : -1;
  }
  for (let i = from; i + piece.length <= end; i++) if (pieceAt(text, i, piece)) return i;
  return -1;
}

function matchPieces(text: string, pieces: readonly string[], starred: boolean): boolean {
  const first = pieces[0] as string;
  if (!starred) return text.length === first.length && pieceAt(text, 0, first);
  const last = pieces[pieces.length - 1] as string;
  if (first.length + last.length > text.length) return false;
  if (!pieceAt(text, 0, first) || !pieceAt(text, text.length - last.length, last)) return false;
  // The middle pieces, each at its leftmost place, must fit before the last piece.
  let at = first.length;
  const end = text.length - last.length;
  for (let p = 1; p < pieces.length - 1; p++) {
    const piece = pieces[p] as string;
    const found = findPiece(text, at, end, piece);
    if (found === -1) return false;
    at = found + piece.length;
  }
  return true;
}
