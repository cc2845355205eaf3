import { quote } from 'shlex';

/** `{name}`, or `${name}` (a shell variable, never substituted). Group 1 is the `$`, group 2 the name. */
const PLACEHOLDER = /(\$?)\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Turns a suite's `run` template into the command given to `bash -c`.
 * Only the known placeholders are replaced — `{output}` and the sweep's
 * parameter names — each by ONE shell word (quoted only when needed), so a
 * path or value with spaces or `$(…)` can never become code. `${VAR}` and awk
 * programs like `{print $1}` are left alone. The same values also reach the
 * process as environment variables, the safer way for nested shells such as
 * hyperfine's: `hyperfine './prog $PERF_GATE_PARAM_N'`.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(PLACEHOLDER, (whole, dollar: string, name: string) => {
    if (dollar !== '' || !Object.hasOwn(values, name)) return whole;
    return quote(values[name]!);
  });
}

/** Whether the template names the output file, so the harness writes it itself (else stdout is the output). */
export function writesOutputFile(template: string): boolean {
  return /(^|[^$])\{output\}/.test(template) || template.includes('PERF_GATE_OUTPUT');
}

/** The environment variable carrying a sweep parameter: PERF_GATE_PARAM_<NAME>. */
export function paramEnvName(name: string): string {
  return `PERF_GATE_PARAM_${name.toUpperCase()}`;
}

/** A placeholder that stands inside quotes, where its quoted word would not be one word. */
export interface QuotedPlaceholder {
  name: string;
  /** Offset of the `{` in the template. */
  index: number;
  quote: 'single' | 'double';
}

/**
 * The quote state at every offset of a bash command: a small lexer for single
 * quotes, double quotes (and `$'…'`), backslash escapes and `#` comments.
 * Everything inside `"…"` counts as double-quoted, `$(…)` in it included — a
 * conservative answer that rejects a few safe commands rather than accept an
 * unsafe one.
 */
function quoteStates(command: string): ('none' | 'single' | 'double')[] {
  const states: ('none' | 'single' | 'double')[] = [];
  let state: 'none' | 'single' | 'double' | 'ansi' | 'comment' = 'none';
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    states[i] = state === 'ansi' ? 'single' : state === 'comment' ? 'none' : state;
    switch (state) {
      case 'none':
        if (c === '\\') {
          states[i + 1] = 'none';
          i++;
        } else if (c === "'") state = i > 0 && command[i - 1] === '$' ? 'ansi' : 'single';
        else if (c === '"') state = 'double';
        else if (c === '#' && (i === 0 || /[\s;&|()<>]/.test(command[i - 1]!))) state = 'comment';
        break;
      case 'single':
        if (c === "'") state = 'none';
        break;
      case 'ansi':
        if (c === '\\') {
          states[i + 1] = 'single';
          i++;
        } else if (c === "'") state = 'none';
        break;
      case 'double':
        if (c === '\\') {
          states[i + 1] = 'double';
          i++;
        } else if (c === '"') state = 'none';
        break;
      case 'comment':
        if (c === '\n') state = 'none';
        break;
    }
  }
  return states;
}

/**
 * Is `command` one simple command — no pipe, list, subshell, command
 * substitution or comment outside quotes — so that words appended to it
 * reach that command (redirections such as `> {output}` may stand anywhere)?
 */
export function isSimpleCommand(command: string): boolean {
  const states = quoteStates(command);
  for (let i = 0; i < command.length; i++) {
    if (states[i] !== 'none') continue;
    const c = command[i]!;
    if (c === '\\') {
      i++;
      continue;
    }
    // `2>&1` and `&>file` are redirections, not lists.
    if (c === '&' && (command[i - 1] === '>' || command[i + 1] === '>')) continue;
    if ('|;&()`\n'.includes(c) || (c === '$' && command[i + 1] === '(')) return false;
    if (c === '#' && (i === 0 || /[\s;&|()<>]/.test(command[i - 1]!))) return false;
  }
  return true;
}

/**
 * The placeholders among `names` that stand inside '…' or "…" in `template`.
 * fillTemplate's quoting makes ONE shell word only outside quotes: inside
 * "…" a value `$(id)` runs, inside '…' a value with a quote ends the string,
 * and inside a nested shell (`sh -c '… {output}'`) a space splits the word.
 * Such templates are refused when the config is read (see perf-gate-config.ts).
 */
export function quotedPlaceholders(template: string, names: Iterable<string>): QuotedPlaceholder[] {
  const known = new Set(names);
  const states = quoteStates(template);
  const found: QuotedPlaceholder[] = [];
  for (const m of template.matchAll(PLACEHOLDER)) {
    const [, dollar, name] = m;
    if (dollar !== '' || !known.has(name!)) continue;
    const state = states[m.index];
    if (state === 'single' || state === 'double') found.push({ name: name!, index: m.index, quote: state });
  }
  return found;
}
