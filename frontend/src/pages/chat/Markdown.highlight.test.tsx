import { render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Markdown } from './Markdown';

// rehype-highlight as it is, with its attacher and the transform it returns
// counted: the attacher builds a highlight.js of its own (every grammar
// registered again), the transform runs once per parse.
const counts = vi.hoisted(() => ({ attached: 0, transformed: 0 }));
vi.mock('rehype-highlight', async (importOriginal) => {
  const real = (await importOriginal<typeof import('rehype-highlight')>()).default;
  return {
    default: (...args: Parameters<typeof real>) => {
      counts.attached++;
      const transform = real(...args);
      return (...a: Parameters<typeof transform>) => {
        counts.transformed++;
        return transform(...a);
      };
    },
  };
});

describe('Markdown highlighting', () => {
  it('builds the highlighter once, and parses an answer again only when its text changes', () => {
    const py = '```python\ndef f(x):\n    return x + 1\n```';
    const guessed = '```\nSELECT name FROM users WHERE id = 1;\n```';
    const { container, rerender } = render(<Markdown text={py} />);
    expect(container.querySelector('pre code.hljs.language-python .hljs-keyword')?.textContent).toBe('def');
    rerender(<Markdown text={py} />); // a message reloaded with the same text (a new seq, say)
    expect(counts.transformed).toBe(1);
    rerender(<Markdown text={guessed} />);
    // No language given: highlight.js guesses it (detect).
    expect(container.querySelector('pre code.hljs')?.className).toMatch(/\blanguage-\w+/);
    for (let i = 0; i < 5; i++) rerender(<Markdown text={`${py}\n\nstep ${i}`} />);
    expect(counts.transformed).toBe(7);
    expect(counts.attached).toBe(1);
  });

  it('renders nothing for an answer with no text yet', () => {
    const { container } = render(<Markdown text="" />);
    expect(container.innerHTML).toBe('');
  });

  it('guesses the language of a block that names none only once the answer is complete', () => {
    const attached = counts.attached;
    const unnamed = 'Here:\n\n```\ndef f(x):\n    return x + 1\n```';
    const { container, rerender } = render(<Markdown text={unnamed} streaming />);
    const code = () => container.querySelector('pre code');
    expect(code()?.className ?? '').not.toMatch(/hljs|language-/);
    rerender(<Markdown text={`${unnamed}\n\nand:\n\n\`\`\`js\nconst a = 1;\n\`\`\``} streaming />);
    // A block that names its language is highlighted as it streams.
    expect(container.querySelector('pre code.hljs.language-js .hljs-keyword')?.textContent).toBe('const');
    expect(code()?.className ?? '').not.toMatch(/hljs/);
    rerender(<Markdown text={unnamed} />);
    expect(code()?.className).toMatch(/\bhljs\b.*\blanguage-\w+/);
    for (let i = 0; i < 3; i++) {
      rerender(<Markdown text={`${unnamed} ${i}`} streaming />);
      rerender(<Markdown text={`${unnamed} ${i}`} />);
    }
    expect(counts.attached - attached).toBe(1); // the streaming highlighter, made once too
  });
});
