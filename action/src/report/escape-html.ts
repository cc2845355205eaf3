/**
 * The one escaper for untrusted text in the standalone HTML report: the five
 * HTML-significant characters become entities (safe in element content and in
 * quoted attributes), and control characters and bidirectional overrides
 * become U+FFFD. `multiline` keeps newlines and tabs (for <pre> log tails).
 */
export function escapeHtml(text: string, options: { multiline?: boolean } = {}): string {
  const cleaned = String(text).replace(options.multiline ? CONTROL_KEEP_LINES : CONTROL, (ch) => (ch === '\r' || ch === '\n' || ch === '\t' ? ' ' : '\uFFFD'));
  return cleaned.replace(/[&<>"']/g, (ch) => ENTITY[ch]!);
}

const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const CONTROL = /[\u0000-\u001F\u007F-\u009F\u00AD\u180E\u200B-\u200D\u202A-\u202E\u2060-\u2064\u2066-\u2069\u{E0000}-\u{E007F}]/gu;
const CONTROL_KEEP_LINES =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u180E\u200B-\u200D\u202A-\u202E\u2060-\u2064\u2066-\u2069\u{E0000}-\u{E007F}]/gu;
