import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// jsdom does not evaluate media queries, so check the stylesheet itself:
// every colour variable of the light theme has a dark counterpart.
const css = readFileSync(resolve(process.cwd(), 'src/styles.css'), 'utf8');

function vars(block: string): string[] {
  return [...block.matchAll(/(--[\w-]+):\s*#/g)].map((m) => m[1] ?? '').sort();
}

describe('theme', () => {
  it('defines a dark scheme following the OS for every colour', () => {
    const light = css.slice(css.indexOf(':root {'), css.indexOf('}', css.indexOf(':root {')));
    const darkStart = css.indexOf('@media (prefers-color-scheme: dark)');
    expect(darkStart).toBeGreaterThan(0);
    const dark = css.slice(darkStart, css.indexOf('}\n}', darkStart));
    const lightColours = vars(light).filter((v) => v !== '--focus');
    expect(lightColours.length).toBeGreaterThan(5);
    expect(vars(dark)).toEqual(expect.arrayContaining(lightColours));
  });
});
