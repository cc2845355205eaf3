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
 */
export function escapeTerminal(text: string, options: { multiline?: boolean } = {}): string {
  const source = options.multiline ? stripVTControlCharacters(String(text)).replace(/\r\n?/g, '\n') : String(text);
  return source.replace(options.multiline ? CONTROL_KEEP_LINES : CONTROL, (ch) => {
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    if (ch === '\t') return '\\t';
    const code = ch.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

const CONTROL = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069\uFEFF]/g;
const CONTROL_KEEP_LINES = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069\uFEFF]/g;
