import { describe, expect, it } from 'vitest';
import { visibleParts, visibleText } from './visible';

// The same cases as mcpmanager/plain's TestShow: every front door writes
// the same text out the same way.
describe('visibleText', () => {
  const pad = ' '.repeat(600);
  it.each([
    ['plain text as it is', '{"command":"ls -la"}', '{"command":"ls -la"}'],
    ['a newline, a tab and a few spaces stay', 'a\n\tb    c', 'a\n\tb    c'],
    ['a padded command', `{"command":"echo harmless${pad}; touch PWNED"}`, '{"command":"echo harmless[600 spaces]; touch PWNED"}'],
    ['tabs and mixed blanks counted', `a${'\t'.repeat(40)}b${' \t'.repeat(20)}c`, 'a[40 tabs]b[40 spaces and tabs]c'],
    ['32 spaces stay, 33 are counted', `a${' '.repeat(32)}b${' '.repeat(33)}c`, `a${' '.repeat(32)}b[33 spaces]c`],
    ['many line breaks counted', `ls${'\n'.repeat(200)}rm -rf ~`, 'ls[200 line breaks]rm -rf ~'],
    ['isolates (Trojan Source)', 'ls \u2067;touch PWNED_T3\u2069 # list files', String.raw`ls \u2067;touch PWNED_T3\u2069 # list files`],
    ['an override', 'echo safe # \u202e; touch PWNED_BIDI \u202c done', String.raw`echo safe # \u202E; touch PWNED_BIDI \u202C done`],
    ['embeddings, marks and the Arabic letter mark', '\u202a\u202b\u202d\u200e\u200f\u061c', String.raw`\u202A\u202B\u202D\u200E\u200F\u061C`],
    ['zero-width characters', 'ec\u200bho \u200c\u200d\u2060\ufeff\u00ad', String.raw`ec\u200Bho \u200C\u200D\u2060\uFEFF\u00AD`],
    ['Hangul fillers', 'a\u115fb\u1160c\u3164d\uffa0e', String.raw`a\u115Fb\u1160c\u3164d\uFFA0e`],
    ['variation selectors and the grapheme joiner', 'a\ufe0fb\u{e0100}c\u034fd', String.raw`a\uFE0Fb\U000E0100c\u034Fd`],
    ['tag characters', 'hi\u{e0041}\u{e007f}', String.raw`hi\U000E0041\U000E007F`],
    ['controls: CR, ESC, DEL, C1, NUL', 'a\rb\x1b[2Jc\x7fd\u009be\x00', String.raw`a\rb\u001B[2Jc\u007Fd\u009Be\u0000`],
    ['spaces that are not U+0020, separators, the braille blank', 'a\u00a0b\u3000c\u2028d\u2029e\u2800f', String.raw`a\u00A0b\u3000c\u2028d\u2029e\u2800f`],
    ['private use, unassigned and a lone surrogate', '\ue000\u{10fffd}\u0378\ud800', String.raw`\uE000\U0010FFFD\u0378\uD800`],
    ['a run of one invisible character counted', `a${'\u200b'.repeat(600)}b`, String.raw`a[600 × \u200B]b`],
    ['eight of one are written each', `a${'\u200b'.repeat(8)}`, `a${String.raw`\u200B`.repeat(8)}`],
    ['visible characters of other scripts stay', 'héllo, 世界 — ok ✓ 🙂', 'héllo, 世界 — ok ✓ 🙂'],
  ])('%s', (_, text, want) => {
    expect(visibleText(text)).toBe(want);
  });

  it('marks what it wrote out, so the card can highlight it', () => {
    expect(visibleParts(`ls \u2067x${' '.repeat(40)}y`)).toEqual([
      { text: 'ls ', kind: 'text' },
      { text: String.raw`\u2067`, kind: 'code', title: 'U+2067, a character that changes the direction of the text around it' },
      { text: 'x', kind: 'text' },
      { text: '[40 spaces]', kind: 'run', title: '40 spaces in a row' },
      { text: 'y', kind: 'text' },
    ]);
  });
});
