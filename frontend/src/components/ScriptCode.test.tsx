import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { ScriptCode, tokens } from './ScriptCode';

describe('ScriptCode', () => {
  it('splits a script into coloured runs that join back into it', () => {
    const src = 'const r = await tools.memory.read_graph({}); // all\nreturn r.entities.length + 1 + "x";';
    const ts = tokens(src);
    expect(ts.map((t) => t.text).join('')).toBe(src);
    const kinds = Object.fromEntries(ts.filter((t) => t.kind).map((t) => [t.text, t.kind]));
    expect(kinds).toMatchObject({ const: 'kw', await: 'kw', read_graph: 'fn', '// all': 'com', return: 'kw', '1': 'num', '"x"': 'str' });
  });

  it('numbers the lines and keeps the text', () => {
    const { getByLabelText } = render(<ScriptCode src={'let a = 1;\nreturn a;'} label="Script" />);
    const pre = getByLabelText('Script');
    expect(pre.querySelectorAll('.ln')).toHaveLength(2);
    expect(pre.textContent).toBe('1let a = 1;\n2return a;');
  });

  it('writes out what does not show as itself', () => {
    const { getByLabelText } = render(<ScriptCode src={'const c = "ls \u2067;rm x\u2069";\nec\u200bho();'} label="Script" />);
    expect(getByLabelText('Script').textContent).toBe(String.raw`1const c = "ls \u2067;rm x\u2069";` + '\n' + String.raw`2ec\u200Bho();`);
  });

  it('marks the line a failed script stopped at, and shows no empty line after the last newline', () => {
    const { getByLabelText } = render(<ScriptCode src={'const a = 1;\nthrow new Error("x");\nreturn a;\n'} label="Script" failedAt={2} />);
    const pre = getByLabelText('Script');
    expect(pre.querySelectorAll('.ln')).toHaveLength(3);
    const marked = pre.querySelectorAll('mark.failed-line');
    expect(marked).toHaveLength(1);
    expect(marked[0]!.textContent).toBe('throw new Error("x");');
    expect(pre.querySelector('.ln.failed-at')!.textContent).toBe('2');
  });
});
