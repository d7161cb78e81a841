/**
 * visible writes out text from a model or a server (a tool call's
 * arguments, a script, a server's question) for a person who decides on it:
 * what text shows raw can differ from what it is — a right-to-left isolate
 * makes `ls \u2067;touch x\u2069` read `ls touch x;`, a zero-width space
 * hides in `ec\u200bho` — and an approval is only worth what the person saw.
 * The rules are the Go side's (mcpmanager/plain/shown.go, plain.Show),
 * which the terminal's question and `serve --code`'s question to its client
 * use, so every front door shows the same:
 *
 * - controls (ESC, CR, DEL, C1; a newline and a tab stay), format characters
 *   (zero-width spaces and joiners, bidirectional marks, embeddings,
 *   overrides and isolates, the BOM, the soft hyphen, tag characters),
 *   variation selectors, the other default-ignorable characters (the Hangul
 *   fillers U+115F, U+1160, U+3164, U+FFA0), spaces other than U+0020, line
 *   and paragraph separators, private-use, unassigned and lone surrogate
 *   characters, and the braille blank are written `\u202E` (`\U000E0041`
 *   beyond the BMP, `\r` for a carriage return);
 * - more than 32 spaces or tabs in a row are written `[600 spaces]`, more
 *   than 4 line breaks `[40 line breaks]`, more than 8 of one written-out
 *   character `[600 × \u200B]`.
 *
 * The window shows the whole text (its boxes scroll), so unlike plain.Show
 * nothing is cut here.
 */

/** A piece of written-out text: as it is, or a character's code or a run's count to highlight. */
export interface Piece {
  text: string;
  kind: 'text' | 'code' | 'run';
  /** What a code or a run stands for, in words (a tooltip). */
  title?: string;
}

/** The runs written as a count; the same numbers as plain.Show's. */
export const BLANK_RUN = 32;
export const BREAK_RUN = 4;
export const SAME_RUN = 8;

// One character that does not show as itself (a newline, a tab and U+0020 do).
const INVISIBLE = String.raw`(?![\n\t ])[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Variation_Selector}\u2800]`;
// What is written out, in the order it wins: blank runs, line-break runs, a run of one invisible character, one.
const SPECIAL = new RegExp(String.raw`([ \t]{${BLANK_RUN + 1},})|(\n{${BREAK_RUN + 1},})|(${INVISIBLE})\3{${SAME_RUN},}|${INVISIBLE}`, 'gu');

/** visibleParts splits text into pieces, what does not show as itself written out (see the module's doc). */
export function visibleParts(text: string): Piece[] {
  const out: Piece[] = [];
  let at = 0;
  for (const m of text.matchAll(SPECIAL)) {
    if (m.index > at) out.push({ text: text.slice(at, m.index), kind: 'text' });
    at = m.index + m[0].length;
    if (m[1]) {
      const n = count(m[1]);
      const what = !m[1].includes('\t') ? 'spaces' : !m[1].includes(' ') ? 'tabs' : 'spaces and tabs';
      out.push({ text: `[${n} ${what}]`, kind: 'run', title: `${n} ${what} in a row` });
    } else if (m[2]) {
      const n = count(m[2]);
      out.push({ text: `[${n} line breaks]`, kind: 'run', title: `${n} line breaks in a row` });
    } else {
      const ch = String.fromCodePoint(m[0].codePointAt(0)!);
      const n = [...m[0]].length;
      out.push(n > 1
        ? { text: `[${n.toLocaleString('en-US')} × ${code(ch)}]`, kind: 'run', title: `${n.toLocaleString('en-US')} × ${describe(ch)}` }
        : { text: code(ch), kind: 'code', title: describe(ch) });
    }
  }
  if (at < text.length) out.push({ text: text.slice(at), kind: 'text' });
  return out;
}

/** writesOut says whether visibleParts changes text: it holds something that does not show as itself. */
export function writesOut(text: string): boolean {
  return visibleParts(text).some((p) => p.kind !== 'text');
}

/** visibleText is text written out as one string (visibleParts joined). */
export function visibleText(text: string): string {
  return visibleParts(text).map((p) => p.text).join('');
}

function count(run: string): string {
  return run.length.toLocaleString('en-US');
}

/** code writes a character out: \r, \u202E, \U000E0041. */
function code(ch: string): string {
  const c = ch.codePointAt(0)!;
  if (c === 0x0d) return '\\r';
  const hex = c.toString(16).toUpperCase();
  return c > 0xffff ? '\\U' + hex.padStart(8, '0') : '\\u' + hex.padStart(4, '0');
}

const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/u;

/** describe says what a written-out character is, for its tooltip. */
function describe(ch: string): string {
  const u = `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  if (BIDI.test(ch)) return `${u}, a character that changes the direction of the text around it`;
  if (/\p{Cc}/u.test(ch)) return `${u}, a control character`;
  return `${u}, a character that does not show as itself`;
}
