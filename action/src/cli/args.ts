import { UsageError } from '../pipeline/index.js';

/** How a flag takes its value: a switch, one string, or a list (`--baseline a.json b.json`). */
export type FlagKind = 'boolean' | 'string' | 'list';

export type FlagValues<S extends Record<string, FlagKind>> = {
  [K in keyof S]?: S[K] extends 'boolean' ? boolean : S[K] extends 'list' ? string[] : string;
};

/**
 * Parses `--name value`, `--name=value` and list flags that take every
 * following word up to the next `--flag` (so `--current a.json b/` reads both).
 * Unknown flags and stray words are UsageErrors naming them.
 */
export function parseFlags<S extends Record<string, FlagKind>>(argv: readonly string[], spec: S): FlagValues<S> {
  const values: Record<string, unknown> = {};
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith('--')) throw new UsageError(`unexpected argument "${word}"`);
    const eq = word.indexOf('=');
    const name = word.slice(2, eq >= 0 ? eq : undefined);
    const inline = eq >= 0 ? word.slice(eq + 1) : undefined;
    const kind = spec[name];
    if (kind === undefined) throw new UsageError(`unknown option --${name}`);
    if (kind === 'boolean') {
      if (inline !== undefined && inline !== 'true' && inline !== 'false')
        throw new UsageError(`--${name} takes no value, or =true / =false; found "${inline}"`);
      values[name] = inline !== 'false';
    } else if (kind === 'string') {
      const value = inline ?? argv[++i];
      if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
      values[name] = value;
    } else {
      const list = (values[name] as string[] | undefined) ?? [];
      if (inline !== undefined) list.push(inline);
      while (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) list.push(argv[++i]!);
      if (list.length === 0) throw new UsageError(`--${name} needs at least one value`);
      values[name] = list;
    }
  }
  return values as FlagValues<S>;
}

/**
 * Like parseFlags for commands that also take words (`history add FILE...`):
 * the words that are neither a flag nor a flag's value, in order, and the
 * flags. List flags are not allowed here: they would swallow the words.
 */
export function parseFlagsAndWords<S extends Record<string, 'boolean' | 'string'>>(
  argv: readonly string[],
  spec: S,
): { flags: FlagValues<S>; words: string[] } {
  const flagArgs: string[] = [];
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith('--')) {
      words.push(word);
      continue;
    }
    flagArgs.push(word);
    const name = word.slice(2).split('=')[0]!;
    if (spec[name] === 'string' && !word.includes('=') && argv[i + 1] !== undefined) flagArgs.push(argv[++i]!);
  }
  return { flags: parseFlags(flagArgs, spec), words };
}

/** A flag that takes a whole number of at least `min`; `fallback` when absent. */
export function wholeNumberFlag(value: string | undefined, name: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} takes a whole number of at least ${min}, found "${value}"`);
  return n;
}

/**
 * `--name A B …` for commands given with `--command`: one name each, in order,
 * all different (the name is the benchmark id; the command is the default).
 */
export function commandNames(commands: readonly string[], names: readonly string[] | undefined): string[] | undefined {
  if (names === undefined) return undefined;
  if (names.length !== commands.length)
    throw new UsageError(`--name gives ${names.length} name(s) for ${commands.length} --command(s); give one name per command, in the same order`);
  const repeated = names.find((n, i) => names.indexOf(n) !== i);
  if (repeated !== undefined) throw new UsageError(`--name "${repeated}" is given twice; each benchmark needs its own name`);
  const empty = names.find((n) => n.trim() === '');
  if (empty !== undefined) throw new UsageError('--name takes non-empty names');
  return [...names];
}
