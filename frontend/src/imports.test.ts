// The one rule of src/'s imports ESLint does not state (eslint.config.js
// has the others: no cycle, the Wails-generated code and the backend's own
// files reached through src/backend's index only): a page's own components
// (pages/<page>/) are used by that page only. Stated in ESLint it would be
// one override per page, each listing every other page.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));

// A specifier in import … from '…', export … from '…', import '…' and import('…').
const SPEC = /(?:\b(?:import|export)\s[^;'"]*?\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;
// Comments that start a line (prose may show an import); a '/*' inside a string must not start one.
const COMMENT = /^\s*\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm;

/** sources lists src/'s .ts and .tsx files as slash paths relative to src/. */
function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(full);
    return /\.tsx?$/.test(e.name) ? [relative(SRC, full).split(sep).join('/')] : [];
  });
}

/** specifiers lists what a source file imports. */
function specifiers(text: string): string[] {
  return [...text.replace(COMMENT, '').matchAll(SPEC)].map((m) => m[1] ?? '');
}

const files = sources();
const known = new Set(files);
const imports = new Map(files.map((f) => [f, specifiers(readFileSync(join(SRC, f), 'utf8'))]));

/** resolve finds the file a relative specifier names, as the bundler would; undefined for other files (CSS, JSON). */
function resolve(from: string, spec: string): string | undefined {
  const base = posix.join(posix.dirname(from), spec);
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((c) => known.has(c));
}

describe('src imports', () => {
  it('finds the source files', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(specifiers("import { a,\n b } from './x';\nexport * from '../y';\n// import z from './z';\nconst m = import('./m');")).toEqual(['./x', '../y', './m']);
  });

  it('keep page-owned components to their page (shared ones live in components/)', () => {
    const pageOf = (f: string) => /^pages\/([^/]+)\//.exec(f)?.[1];
    // Tests may exercise any component; PageView and App show the pages themselves.
    const crossing = files.filter((f) => !f.includes('.test.')).flatMap((f) =>
      (imports.get(f) ?? []).flatMap((s) => {
        const to = resolve(f, s);
        const owner = to && pageOf(to);
        return owner && owner !== pageOf(f) && !f.endsWith('PageView.tsx') && to !== `pages/${owner}/${owner[0]?.toUpperCase()}${owner.slice(1)}Page.tsx`
          ? [`${f} imports ${s}`]
          : [];
      }),
    );
    expect(crossing).toEqual([]);
  });
});
