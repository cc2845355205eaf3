import { stripVTControlCharacters } from 'node:util';

/**
 * The one escaper for untrusted text (benchmark and metric names, units, error
 * messages, commit refs) entering GitHub-flavoured Markdown, including the HTML
 * that Markdown carries (`<details>`, `<summary>`, table cells).
 *
 * Why entities and not backslashes: the same text lands in table cells (Markdown
 * inline context) and in `<summary>` (an HTML block, where `\_` would show the
 * backslash). A numeric entity is decoded to a literal character in both
 * contexts and is never syntax, so one escaper serves both.
 *
 * What it neutralises, and how:
 * - `|` (would split a table cell), `` ` `` (code spans), `[` `]` (links and
 *   images), `*` `_` `~` (emphasis), `#` (headings), `$` (math), `\` (escapes),
 *   `&` `<` `>` (HTML, autolinks, `<!-- -->` comment markers): numeric or named
 *   entities;
 * - `@name` (a live mention notifies that user or team) and `#123` (a
 *   cross-reference written into another issue's timeline): a zero-width space
 *   after the sign, as an entity. GitHub links mentions after entity decoding,
 *   so the break must be a character, not an encoding;
 * - `GH-123`, which GitHub links to issue 123 like `#123`: a zero-width space
 *   after the dash;
 * - bare URLs (`https://…`, `www.…`), which GitHub turns into links even
 *   without Markdown syntax: a zero-width space after the scheme's colon and
 *   after `www`, so a benchmark name cannot plant a link in the bot's comment;
 * - line breaks (a table row must stay one row) become a space; terminal
 *   escape sequences are removed; other control characters and bidirectional
 *   overrides (text that displays differently from what it is) become U+FFFD.
 */
export function escapeMarkdown(text: string): string {
  return breakAutolinks(cleanControls(stripVTControlCharacters(String(text)).replace(LINE_BREAK, ' ').replace(/\t/g, ' '))).replace(
    MARKDOWN_SPECIAL,
    (ch, offset: number, whole: string) => {
      const entity = ENTITY[ch] ?? ch;
      const next = whole.charAt(offset + 1);
      if (ch === '@' || (ch === '#' && /[0-9]/.test(next))) return `${entity}${ZERO_WIDTH_SPACE}`;
      return entity;
    },
  );
}

/**
 * A fenced code block for untrusted multi-line text (a benchmark's log tail).
 * Inside a fence entities would show literally, so the text is kept verbatim
 * except for what could escape the block or fake a marker: the fence is longer
 * than any backtick run in the text (so no line can close it), `<!--` and `-->`
 * get a zero-width space (no comment marker survives, not even one GitHub would
 * show as code), terminal escape sequences are removed and other control
 * characters become U+FFFD. Mentions are not live inside code.
 */
export function codeBlock(text: string, info = 'text'): string {
  const body = cleanControls(stripVTControlCharacters(String(text)).replace(/\r\n?|[\u2028\u2029\u0085]/g, '\n'))
    .replace(/<!--/g, `<!${ZWSP_CHAR}--`)
    .replace(/-->/g, `-${ZWSP_CHAR}->`)
    .replace(/\n+$/, '');
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${body}\n${fence}`;
}

const ZWSP_CHAR = '\u200B';

/** Breaks what GitHub autolinks (scheme://, www., GH-123 issue references) with a zero-width space; the entity pass leaves it alone. */
function breakAutolinks(text: string): string {
  return text
    .replace(/([a-z][a-z0-9+.-]*):(?=\/\/)/gi, `$1:${ZWSP_CHAR}`)
    .replace(/\b(www)\./gi, `$1${ZWSP_CHAR}.`)
    .replace(/\b(GH)-(?=[0-9])/gi, `$1-${ZWSP_CHAR}`);
}
const ZERO_WIDTH_SPACE = '&#8203;';
const LINE_BREAK = /\r\n|[\r\n\u2028\u2029\u0085]/g;
const MARKDOWN_SPECIAL = /[&<>|`[\]*_~#$\\@]/g;
const ENTITY: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '|': '&#124;',
  '`': '&#96;',
  '[': '&#91;',
  ']': '&#93;',
  '*': '&#42;',
  _: '&#95;',
  '~': '&#126;',
  '#': '&#35;',
  $: '&#36;',
  '\\': '&#92;',
  '@': '@',
};

/**
 * Controls other than \n and \t, DEL, C1 controls, bidi overrides and
 * isolates, BOM; and the invisible characters that make two names look alike
 * (soft hyphen, zero-width space, joiners, word joiner and invisible
 * operators, the Mongolian vowel separator, tag characters).
 */
const CONTROL =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/gu;

function cleanControls(text: string): string {
  return text.replace(CONTROL, '\uFFFD');
}
