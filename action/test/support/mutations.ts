import fc from 'fast-check';

/**
 * Mutations of a valid input, for the fuzz properties (docs/reliability.md).
 * A fuzzer that starts from nothing rarely gets past a parser's first check;
 * one that starts from a real harness file and breaks it a little reaches the
 * code that reads numbers, keys and lines. Each mutation is a small record
 * that says what it did, so a failing case prints as something a person can
 * reproduce ("truncated at 412", "number 3 of 57 → NaN").
 */
export interface Mutated {
  text: string;
  /** What was done to the seed, in order. */
  steps: string[];
}

/** Values a number in a harness file is replaced by: the ones parsers forget. */
export const HOSTILE_NUMBERS = [
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-1e309',
  '-1',
  '-0',
  '0',
  '1e-320',
  '99999999999999999999999',
  '0x10',
  '1_000',
  '',
  '.',
  '-',
  '1e',
  '+5',
  '٣',
] as const;

/** Values a JSON value is replaced by. */
const HOSTILE_VALUES: unknown[] = [null, '', 'NaN', -1, 0, 1e308, -1e308, true, [], {}, [null], { '': null }, '\u0000', '\u202e\u200b', '1e309'];

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

function numberSpans(text: string): { start: number; end: number }[] {
  return [...text.matchAll(NUMBER)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

function lines(text: string): string[] {
  return text.split('\n');
}

/** Truncation anywhere, including inside a multi-byte character's UTF-16 pair. */
function truncate(text: string): fc.Arbitrary<Mutated> {
  return fc.nat({ max: Math.max(0, text.length - 1) }).map((at) => ({ text: text.slice(0, at), steps: [`truncated at ${at} of ${text.length}`] }));
}

/** One character replaced by an arbitrary one (control characters, quotes, brackets, surrogates). */
function flip(text: string): fc.Arbitrary<Mutated> {
  const replacement = fc.oneof(
    fc.constantFrom('\0', '"', "'", '{', '}', '[', ']', ',', ':', '\n', '\r', '\t', ' ', '<', '>', '&', '#', '-', '.', 'e', '\uFFFD', '\uD800', '\u202E'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  );
  return fc.tuple(fc.nat({ max: Math.max(0, text.length - 1) }), replacement).map(([at, c]) => ({
    text: text.slice(0, at) + c + text.slice(at + 1),
    steps: [`character ${at} → ${JSON.stringify(c)}`],
  }));
}

/** One number token replaced by a hostile one. */
function number(text: string): fc.Arbitrary<Mutated> {
  const spans = numberSpans(text);
  if (spans.length === 0) return flip(text);
  return fc.tuple(fc.nat({ max: spans.length - 1 }), fc.constantFrom(...HOSTILE_NUMBERS)).map(([i, value]) => {
    const { start, end } = spans[i]!;
    return {
      text: text.slice(0, start) + value + text.slice(end),
      steps: [`number ${i + 1} of ${spans.length} (${text.slice(start, end)}) → ${JSON.stringify(value)}`],
    };
  });
}

/** A line removed, duplicated, or two lines swapped. */
function lineEdit(text: string): fc.Arbitrary<Mutated> {
  const all = lines(text);
  const index = fc.nat({ max: Math.max(0, all.length - 1) });
  return fc.tuple(fc.constantFrom('remove', 'duplicate', 'swap'), index, index).map(([op, i, j]) => {
    const copy = [...all];
    if (op === 'remove') copy.splice(i, 1);
    else if (op === 'duplicate') copy.splice(i, 0, copy[i]!);
    else [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    return {
      text: copy.join('\n'),
      steps: [op === 'swap' ? `lines ${i + 1} and ${j + 1} swapped` : `line ${i + 1} ${op === 'remove' ? 'removed' : 'duplicated'}`],
    };
  });
}

/** A short arbitrary string inserted anywhere. */
function insert(text: string): fc.Arbitrary<Mutated> {
  return fc.tuple(fc.nat({ max: text.length }), fc.string({ unit: 'binary', maxLength: 12 })).map(([at, s]) => ({
    text: text.slice(0, at) + s + text.slice(at),
    steps: [`inserted ${JSON.stringify(s)} at ${at}`],
  }));
}

type Path = (string | number)[];

function pathsOf(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  // Large files (a JMH rawData of thousands of numbers) mutate well enough from their first 5,000 places.
  if (out.length > 5000 || prefix.length > 200 || value === null || typeof value !== 'object') return out;
  const children: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [k, v] of children) {
    out.push([...prefix, k]);
    pathsOf(v, [...prefix, k], out);
  }
  return out;
}

function parentOf(root: unknown, path: Path): Record<string | number, unknown> {
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  return node;
}

/** A nesting `depth` arrays deep around `inner`. */
export function deepNesting(depth: number, inner = '1'): string {
  return `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
}

/**
 * Structural JSON mutations: a key removed, a value replaced by a hostile one,
 * a key written twice (the text holds both; JSON.parse keeps the last), a
 * value nested 3,000 arrays deep. Texts that are not JSON get a text mutation.
 */
function jsonEdit(text: string): fc.Arbitrary<Mutated> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return flip(text);
  }
  const paths = pathsOf(data);
  // An input this generator already nested 3,000 deep is left to the text mutations (JSON.stringify would overflow the stack).
  if (paths.length === 0 || paths.some((p) => p.length > 200)) return flip(text);
  const op = fc.constantFrom('remove', 'replace', 'duplicate', 'deepen');
  return fc.tuple(op, fc.nat({ max: paths.length - 1 }), fc.nat({ max: HOSTILE_VALUES.length - 1 }), fc.nat({ max: 2 })).map(([kind, i, v, indent]) => {
    const copy = structuredClone(data);
    const path = paths[i]!;
    const parent = parentOf(copy, path);
    const key = path[path.length - 1]!;
    const where = path.join('.');
    if (kind === 'remove') {
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
      return { text: JSON.stringify(copy, null, indent), steps: [`removed ${where}`] };
    }
    if (kind === 'replace') {
      parent[key] = structuredClone(HOSTILE_VALUES[v]);
      return { text: JSON.stringify(copy, null, indent), steps: [`${where} → ${JSON.stringify(HOSTILE_VALUES[v])}`] };
    }
    const marker = '"\u0001perf-gate-fuzz\u0001"';
    parent[key] = marker;
    const serialised = JSON.stringify(copy, null, indent);
    const original = JSON.stringify(parentOf(data, path)[key]);
    if (kind === 'deepen')
      return { text: serialised.replace(JSON.stringify(marker), deepNesting(3000, original)), steps: [`${where} nested 3,000 arrays deep`] };
    // duplicate: the same key twice in one object, the first with a hostile value
    if (Array.isArray(parent)) return { text: serialised.replace(JSON.stringify(marker), `${original}, ${original}`), steps: [`${where} written twice`] };
    return {
      text: serialised.replace(JSON.stringify(marker), `${JSON.stringify(HOSTILE_VALUES[v])}, ${JSON.stringify(String(key))}: ${original}`),
      steps: [`key ${where} written twice (first ${JSON.stringify(HOSTILE_VALUES[v])})`],
    };
  });
}

/** One mutation of `text`, of any kind. */
export function mutation(text: string): fc.Arbitrary<Mutated> {
  return fc.oneof(truncate(text), flip(text), number(text), number(text), lineEdit(text), insert(text), jsonEdit(text), jsonEdit(text));
}

/** One to three mutations in a row. */
export function mutated(text: string): fc.Arbitrary<Mutated> {
  return mutation(text).chain((first) =>
    fc.nat({ max: 2 }).chain((more) => {
      let arb: fc.Arbitrary<Mutated> = fc.constant(first);
      for (let i = 0; i < more; i++) arb = arb.chain((m) => mutation(m.text).map((n) => ({ text: n.text, steps: [...m.steps, ...n.steps] })));
      return arb;
    }),
  );
}

/** Byte-level mutations of a binary file (compressed history files): truncation, flipped bytes, appended garbage. */
export function mutatedBytes(bytes: Uint8Array): fc.Arbitrary<{ bytes: Buffer; steps: string[] }> {
  const at = fc.nat({ max: Math.max(0, bytes.length - 1) });
  return fc.oneof(
    at.map((n) => ({ bytes: Buffer.from(bytes.subarray(0, n)), steps: [`truncated at byte ${n} of ${bytes.length}`] })),
    fc.tuple(at, fc.integer({ min: 0, max: 255 })).map(([n, b]) => {
      const copy = Buffer.from(bytes);
      copy[n] = b;
      return { bytes: copy, steps: [`byte ${n} → ${b}`] };
    }),
    fc.uint8Array({ minLength: 1, maxLength: 64 }).map((tail) => ({ bytes: Buffer.concat([bytes, tail]), steps: [`${tail.length} bytes appended`] })),
  );
}

/**
 * Insignificant changes to a JSON text: re-indented, keys in reverse order.
 * A parser's answer must not change (JSON objects are unordered, and
 * harnesses differ in how they indent). The members of an object under a
 * key in `keepOrder` keep their order: JMH writes `params` in the order the
 * benchmark declares them, and the benchmark id lists them in that order, as
 * JMH's own tables do.
 */
export function reformattedJson(text: string, keepOrder: readonly string[] = ['params']): string[] {
  const data = JSON.parse(text) as unknown;
  const reversed = (v: unknown, key = ''): unknown => {
    if (Array.isArray(v)) return v.map((x) => reversed(x));
    if (v === null || typeof v !== 'object') return v;
    const entries = Object.entries(v).map(([k, x]) => [k, reversed(x, k)] as const);
    return Object.fromEntries(keepOrder.includes(key) ? entries : entries.reverse());
  };
  return [JSON.stringify(data), JSON.stringify(reversed(data), null, 4), `\n\n${JSON.stringify(data, null, '\t')}\n\n`];
}
