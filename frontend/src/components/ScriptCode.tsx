import { Fragment } from 'react';
import { Visible } from './Visible';

/** Token kinds a script is coloured by. */
type Kind = 'kw' | 'str' | 'num' | 'com' | 'fn' | '';

const KEYWORDS = new Set([
  'async', 'await', 'break', 'case', 'catch', 'const', 'continue', 'default', 'do', 'else', 'false', 'finally',
  'for', 'function', 'if', 'in', 'instanceof', 'let', 'new', 'null', 'of', 'return', 'switch', 'throw', 'true',
  'try', 'typeof', 'undefined', 'var', 'while',
]);

// One alternation per kind, in the order they win: comments, strings
// (with template literals), numbers, words.
const TOKEN = /(\/\/[^\n]*|\/\*[\s\S]*?\*\/)|("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)|(\b\d[\d_]*(?:\.\d+)?\b)|([A-Za-z_$][\w$]*)/g;

/** tokens splits a JavaScript source into coloured runs; joined, they are the source. */
export function tokens(src: string): { text: string; kind: Kind }[] {
  const out: { text: string; kind: Kind }[] = [];
  let at = 0;
  for (const m of src.matchAll(TOKEN)) {
    if (m.index > at) out.push({ text: src.slice(at, m.index), kind: '' });
    let kind: Kind = '';
    if (m[1]) kind = 'com';
    else if (m[2]) kind = 'str';
    else if (m[3]) kind = 'num';
    else if (KEYWORDS.has(m[4]!)) kind = 'kw';
    else if (src[m.index + m[0].length] === '(') kind = 'fn';
    out.push({ text: m[0], kind });
    at = m.index + m[0].length;
  }
  if (at < src.length) out.push({ text: src.slice(at), kind: '' });
  return out;
}

/**
 * ScriptCode shows a script in monospace with line numbers and its keywords, strings, numbers and comments coloured;
 * what does not show as itself is written out (Visible). The line a failed script stopped at (failedAt, from 1) is
 * marked, so the error's "line 6" is found at a glance; the empty line after a script's last newline is not shown.
 */
export function ScriptCode({ src, label, failedAt = 0 }: { src: string; label: string; failedAt?: number }) {
  const lines: { text: string; kind: Kind }[][] = [[]];
  for (const t of tokens(src)) {
    t.text.split('\n').forEach((part, i) => {
      if (i > 0) lines.push([]);
      if (part) lines[lines.length - 1]!.push({ text: part, kind: t.kind });
    });
  }
  if (lines.length > 1 && lines[lines.length - 1]!.length === 0) lines.pop();
  return (
    <pre className="script-code" aria-label={label}>
      <code>
        {lines.map((l, i) => {
          const runs = l.map((t, j) => (t.kind ? <span key={j} className={`tok-${t.kind}`}><Visible text={t.text} /></span> : <Visible key={j} text={t.text} />));
          const failed = i + 1 === failedAt;
          return (
            <Fragment key={i}>
              <span className={failed ? 'ln failed-at' : 'ln'} aria-hidden="true">{i + 1}</span>
              {failed ? <mark className="failed-line" title="The script stopped at this line">{runs}</mark> : runs}
              {i < lines.length - 1 && '\n'}
            </Fragment>
          );
        })}
      </code>
    </pre>
  );
}
