import { stripVTControlCharacters } from 'node:util';

/**
 * The one escaper for untrusted text printed to a terminal. A benchmark name
 * or a log line must not move the cursor, recolour the screen, set the window
 * title, ring the bell or reverse the text's direction (bidi overrides), and
 * a name must stay on its table line. Control characters become visible
 * escapes ("\x1b", "\n", "\u202e"), so what is printed shows what the text is.
 *
 * `multiline` keeps newlines and tabs (for log tails) and drops well-formed
 * terminal escape sequences (colours a tool printed) instead of showing them.
 *
 * On a GitHub Actions runner a line whose first non-blank characters are `::`
 * is a workflow command (`::error::`, `::add-mask::`, `::stop-commands::`),
 * and a table line starts with a benchmark name: such text gets a backslash
 * before its `::`, so no line perf-gate prints can start a command.
 */
export function escapeTerminal(text: string, options: { multiline?: boolean } = {}): string {
  const source = options.multiline ? stripVTControlCharacters(String(text)).replace(/\r\n?/g, '\n') : String(text);
  return escapeControl(source, options.multiline === true).replace(options.multiline ? COMMAND_AT_LINE_START : COMMAND_AT_START, '$1\\::');
}

/** `::` after nothing but blanks (the runner trims leading white space before it looks). */
const COMMAND_AT_START = /^(\s*)::/;
const COMMAND_AT_LINE_START = /^([^\S\n]*)::/gm;

function escapeControl(source: string, multiline: boolean): string {
  return source.replace(multiline ? CONTROL_KEEP_LINES : CONTROL, (ch) => {
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    if (ch === '\t') return '\\t';
    const code = ch.codePointAt(0)!;
    if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
    return code <= 0xffff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\u{${code.toString(16)}}`;
  });
}

const CONTROL = /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/gu;
const CONTROL_KEEP_LINES =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/gu;
