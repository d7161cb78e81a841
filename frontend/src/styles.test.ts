import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// jsdom does not evaluate media queries, so check the stylesheet itself:
// every colour variable of the light theme has a dark counterpart.
const css = readFileSync(resolve(process.cwd(), 'src/styles.css'), 'utf8');

function vars(block: string): string[] {
  return [...block.matchAll(/(--[\w-]+):\s*#/g)].map((m) => m[1] ?? '').sort();
}

const lightBlock = css.slice(css.indexOf(':root {'), css.indexOf('}', css.indexOf(':root {')));
const darkStart = css.indexOf('@media (prefers-color-scheme: dark)');
const darkBlock = css.slice(darkStart, css.indexOf('}\n}', darkStart));

/** colours reads a block's colour variables: name → #rrggbb. */
function colours(block: string): Record<string, string> {
  return Object.fromEntries([...block.matchAll(/(--[\w-]+):\s*(#[0-9a-fA-F]{6})\b/g)].map((m) => [m[1] ?? '', m[2] ?? '']));
}

/** contrast is WCAG 2's contrast ratio of two #rrggbb colours. */
export function contrast(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const v = parseInt(hex.slice(i, i + 2), 16) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe('theme', () => {
  it('defines a dark scheme following the OS for every colour', () => {
    expect(darkStart).toBeGreaterThan(0);
    const lightColours = vars(lightBlock);
    expect(lightColours.length).toBeGreaterThan(5);
    expect(vars(darkBlock)).toEqual(expect.arrayContaining(lightColours));
  });

  // WCAG AA: text 4.5:1 on every surface it sits on (the page, cards and
  // dialogs, the sidebar, a user's message); the focus ring 3:1 (1.4.11).
  const surfaces = ['--bg', '--surface', '--sidebar', '--accent-soft'];
  const light = colours(lightBlock);
  const schemes = { light, dark: { ...light, ...colours(darkBlock) } };
  const checks: [string, string[], number][] = [
    ['--text', surfaces, 4.5],
    ['--muted', surfaces, 4.5],
    ['--accent', surfaces, 4.5],
    ['--warn', surfaces, 4.5],
    ['--danger', surfaces, 4.5],
    ['--ok', surfaces, 4.5],
    ['--accent-text', ['--accent'], 4.5],
    ['--danger-text', ['--danger'], 4.5],
    ['--focus', ['--bg', '--surface', '--sidebar'], 3],
    // Highlighted code (highlight.js, code mode's scripts) on the code blocks' --bg and the cards' --surface.
    ...['--code-keyword', '--code-string', '--code-number', '--code-attr'].map((v): [string, string[], number] => [v, ['--bg', '--surface'], 4.5]),
  ];
  for (const [scheme, c] of Object.entries(schemes)) {
    for (const [fg, on, min] of checks) {
      it(`${scheme}: ${fg} keeps ${min}:1 on ${on.join(', ')}`, () => {
        for (const bg of on) {
          expect(c[fg], `${fg} is not declared`).toMatch(/^#/);
          expect(contrast(c[fg]!, c[bg]!), `${fg} ${c[fg]} on ${bg} ${c[bg]}`).toBeGreaterThanOrEqual(min);
        }
      });
    }
  }

  // A colour written into a rule does not follow the scheme: error, notice,
  // status text and syntax highlighting go through the variables above. The
  // search mark and the terminal are the exceptions.
  it('writes no fixed colour outside the theme', () => {
    const allowed = /^mark|\.terminal|badge-sandbox/;
    const files = [resolve(process.cwd(), 'src/styles.css'), ...cssFiles(resolve(process.cwd(), 'src'))];
    const found: string[] = [];
    for (const f of new Set(files)) {
      const text = readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
      for (const rule of text.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
        const selector = (rule[1] ?? '').trim();
        if (selector.startsWith(':root') || allowed.test(selector)) continue;
        for (const hex of (rule[2] ?? '').matchAll(/#[0-9a-fA-F]{3,8}\b/g)) found.push(`${f.slice(f.indexOf('src/'))}: ${selector} ${hex[0]}`);
      }
    }
    expect(found).toEqual([]);
  });
});

/** rule is the declarations of the rule whose selector is exactly selector, or "". */
function rule(selector: string): string {
  const at = css.indexOf(`${selector} {`);
  return at < 0 ? '' : css.slice(css.indexOf('{', at) + 1, css.indexOf('}', at));
}

// What UI probe 5 found, as the stylesheet must say it.
describe('styles', () => {
  it('colours every highlighted token with a theme variable', () => {
    const rules = [...css.matchAll(/([^{}]*\.(?:hljs|tok)-[^{}]*)\{([^{}]*)\}/g)];
    expect(rules.length).toBeGreaterThan(5);
    for (const [, selector, body] of rules) expect(body, selector?.trim()).toMatch(/color: var\(--(code-[a-z]+|muted|accent)\)/);
  });

  it('colours links with the accent, visited or not', () => {
    expect(rule('a, a:visited')).toContain('color: var(--accent)');
  });

  it('gives a disabled primary button a neutral surface, not a dimmed accent', () => {
    const r = rule('button.primary:disabled, button.danger:disabled');
    expect(r).toContain('background: var(--border)');
    expect(r).toContain('color: var(--muted)');
  });

  it('draws the focus ring inside the chat list, whose overflow cuts it at the sides', () => {
    const sel = [...css.matchAll(/([^{}]+):focus-visible \{ outline-offset: -2px; \}/g)].map((m) => m[1] ?? '');
    expect(sel.some((x) => x.includes('.chat-list'))).toBe(true);
  });

  it('keeps the Knowledge empty state off its box\'s border', () => {
    expect(rule('.store-list > li.muted')).toMatch(/padding: \d+px \d+px/);
  });
});

function cssFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return cssFiles(p);
    return n.endsWith('.css') ? [p] : [];
  });
}
