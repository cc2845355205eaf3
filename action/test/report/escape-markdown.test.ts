import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { codeBlock, escapeMarkdown } from '../../src/report/escape-markdown.js';
import { escapeTerminal } from '../../src/report/escape-terminal.js';
import { escapeHtml } from '../../src/report/escape-html.js';

/** True when the text still holds something Markdown or HTML would act on. */
function live(text: string): string | undefined {
  if (/[|<>`[\]\n\r*_~$\\]/.test(text)) return 'syntax character';
  if (/@(?!&#8203;)/.test(text)) return 'live mention';
  if (/#(?!35;)(?!&#8203;)/.test(text.replace(/&#\d+;/g, ''))) return 'raw #';
  if (/&(?!(?:amp|lt|gt|#\d+);)/.test(text)) return 'bare ampersand';
  return undefined;
}

describe('escapeMarkdown', () => {
  test('turns every Markdown and HTML special character into an entity', () => {
    assert.equal(escapeMarkdown('a|b'), 'a&#124;b');
    assert.equal(escapeMarkdown('<script>'), '&lt;script&gt;');
    assert.equal(escapeMarkdown('x & y'), 'x &amp; y');
    assert.equal(escapeMarkdown('`code`'), '&#96;code&#96;');
    assert.equal(escapeMarkdown('[a](b)'), '&#91;a&#93;(b)');
    assert.equal(escapeMarkdown('# title'), '&#35; title');
    assert.equal(escapeMarkdown('$(touch pwned)'), '&#36;(touch pwned)');
    assert.equal(escapeMarkdown('**b** _i_ ~s~ \\'), '&#42;&#42;b&#42;&#42; &#95;i&#95; &#126;s&#126; &#92;');
  });

  test('breaks mentions and issue references with a zero-width space', () => {
    assert.equal(escapeMarkdown('@someone'), '@&#8203;someone');
    assert.equal(escapeMarkdown('cc @org/team'), 'cc @&#8203;org/team');
    assert.equal(escapeMarkdown('fixes #12'), 'fixes &#35;&#8203;12');
  });

  test('neutralises comment markers in both directions', () => {
    const out = escapeMarkdown('<!-- perf-gate --> and -->');
    assert.ok(!out.includes('<!--') && !out.includes('-->'), out);
    assert.equal(out, '&lt;!-- perf-gate --&gt; and --&gt;');
  });

  test('keeps a table cell on one line and removes terminal escapes and bidi overrides', () => {
    assert.equal(escapeMarkdown('a\nb\r\nc\rd\u2028e'), 'a b c d e');
    assert.equal(escapeMarkdown('\u001b[31mred\u001b[0m'), 'red');
    assert.equal(escapeMarkdown('x\u202Ey\u0000z'), 'x\uFFFDy\uFFFDz');
  });

  test('leaves ordinary benchmark names readable', () => {
    assert.equal(escapeMarkdown('scan/prtip -p 1-1000 127.0.0.1'), 'scan/prtip -p 1-1000 127.0.0.1');
  });

  test('output of any string carries nothing live (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'|<>`[]\n\r*_~$\\@#&!-abc 1'.split('')), maxLength: 40 }), (s) => {
        assert.equal(live(escapeMarkdown(s)), undefined, JSON.stringify(s));
      }),
      { numRuns: 500 },
    );
  });
});

describe('codeBlock', () => {
  test('uses a fence longer than any backtick run in the text', () => {
    const block = codeBlock('a\n```\nb\n`````\nc');
    const lines = block.split('\n');
    assert.equal(lines[0], '``````text');
    assert.equal(lines.at(-1), '``````');
    // No inner line is a closing fence of that length.
    assert.ok(lines.slice(1, -1).every((l) => !/^ {0,3}`{6,}\s*$/.test(l)));
  });

  test('a text without backticks gets the usual three', () => {
    assert.equal(codeBlock('hello\n'), '```text\nhello\n```');
  });

  test('breaks comment markers and strips terminal escapes inside the block', () => {
    const block = codeBlock('\u001b[1mbold\u001b[0m <!-- perf-gate --> x\r\ny\u0007');
    assert.ok(!block.includes('<!--') && !block.includes('-->'), block);
    assert.ok(!block.includes('\u001b') && !block.includes('\u0007') && !block.includes('\r'), block);
    assert.ok(block.includes('bold'));
  });
});

test('bare URLs in untrusted text are broken so GitHub does not autolink them', () => {
  for (const text of ['see https://evil.example/login', 'http://x.test', 'www.evil.example']) {
    const out = escapeMarkdown(text);
    assert.doesNotMatch(out, /https?:\/\//);
    assert.doesNotMatch(out, /www\./);
    assert.equal(out.replace(/\u200B/g, ''), text, 'only zero-width spaces were added');
  }
});

test('GH-123 issue references are broken so GitHub does not link them', () => {
  for (const text of ['fixes GH-123', 'gh-7 regression', 'a/GH-42/b']) {
    const out = escapeMarkdown(text);
    assert.doesNotMatch(out, /\bgh-[0-9]/i);
    assert.equal(out.replace(/\u200B/g, ''), text, 'only zero-width spaces were added');
  }
});

test('hardening 3.12: invisible characters are made visible, so two names never look alike', () => {
  const hidden = ['\u200B', '\u200C', '\u200D', '\u2060', '\u00AD', '\u{E0041}', '\u180E'];
  for (const ch of hidden) {
    const shown = escapeMarkdown(`par${ch}se`);
    assert.equal(shown, 'par\uFFFDse', JSON.stringify(ch));
    assert.notEqual(escapeMarkdown(`par${ch}se new`), escapeMarkdown('parse new'));
  }
  assert.equal(escapeTerminal('a\u200Bb\u{E0041}c'), 'a\\u200bb\\u{e0041}c');
  assert.equal(escapeHtml('a\u200Bb'), 'a\uFFFDb');
});
