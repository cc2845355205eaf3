/**
 * Fits a report made of blocks under a size limit (GitHub's job summary takes
 * at most 1 MiB) by cutting rows from the end of its tables, never the
 * verdict or the prose around them. Every table keeps a fair share: rows are
 * taken one per table in turn, so a long benchmarks table cannot push the
 * change points or the recommendations out. A cut table says how many rows it
 * left out and where the full report is; the report says once, near its top,
 * that it was cut.
 */

/** A table or list that may lose rows from its end. */
export interface CuttableBlock {
  /** What comes before the rows (a heading, a table's header). */
  head: string;
  rows: readonly string[];
  /** What comes after the rows and is always kept (a code block's closing fence). */
  tail?: string;
}

export type Block = string | CuttableBlock;

export interface FitOptions {
  /** The limit, in UTF-8 bytes. */
  maxBytes: number;
  /** The line under a cut block: how many rows were left out, and where they are. */
  cutNote(left: number): string;
  /** Said once, after the first block, when anything was cut. */
  notice: string;
}

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** The blocks joined by blank lines; with `keep`, each cuttable block keeps that many rows. */
function render(blocks: readonly Block[], keep: readonly number[] | null, options: FitOptions): string {
  const parts = blocks.map((block, i) => {
    if (typeof block === 'string') return block;
    const kept = keep === null ? block.rows.length : keep[i]!;
    const body = [block.head, ...block.rows.slice(0, kept), ...(block.tail !== undefined ? [block.tail] : [])].join('\n');
    return kept < block.rows.length ? `${body}\n\n${options.cutNote(block.rows.length - kept)}` : body;
  });
  if (keep !== null) parts.splice(1, 0, options.notice);
  return parts.filter((p) => p !== '').join('\n\n');
}

/** The longest prefix of `text` within `max` bytes, cut at a character boundary. */
function cutBytes(text: string, max: number): string {
  let out = text;
  while (bytes(out) > max) out = out.slice(0, Math.max(0, out.length - Math.max(1, Math.ceil((bytes(out) - max) / 4))));
  return out;
}

/** The blocks as Markdown within `maxBytes`: whole when they fit, else with rows cut from the tables' ends. */
export function fitBlocks(blocks: readonly Block[], options: FitOptions): string {
  const full = render(blocks, null, options);
  if (bytes(full) <= options.maxBytes) return full;
  const keep = blocks.map(() => 0);
  const skeleton = render(blocks, keep, options);
  // Not even the prose fits: the verdict block and the notice, as much as fits.
  if (bytes(skeleton) > options.maxBytes) return cutBytes(`${render(blocks.slice(0, 1), null, options)}\n\n${options.notice}`, options.maxBytes);
  // The skeleton counts every cut note at its longest, so taking rows only makes the text shorter than the sum.
  let room = options.maxBytes - bytes(skeleton);
  const rows = blocks.map((b) => (typeof b === 'string' ? [] : b.rows));
  for (let taken = true; taken;) {
    taken = false;
    for (let i = 0; i < blocks.length; i++) {
      const next = rows[i]![keep[i]!];
      if (next === undefined) continue;
      const cost = bytes(next) + 1;
      if (cost > room) continue;
      room -= cost;
      keep[i]! += 1;
      taken = true;
    }
  }
  let text = render(blocks, keep, options);
  // A cut note that disappears or shortens can only help, so this rarely runs; it is the guarantee.
  while (bytes(text) > options.maxBytes) {
    const largest = keep.indexOf(Math.max(...keep));
    if (keep[largest] === 0) return skeleton;
    keep[largest] = Math.floor(keep[largest]! * 0.9);
    text = render(blocks, keep, options);
  }
  return text;
}
