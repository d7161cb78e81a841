// The rules of src/'s imports, checked on the source files themselves:
// only the backend module reaches the Wails-generated code, everything else
// reaches the backend through its index, a page's own components
// (pages/<page>/) are used by that page only, and no imports go round in a
// cycle. layout_frontend_test.go checks the first and last from go test too.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));

/** GENERATED_EVENTS is written by app/internal/eventsgen beside the backend module and names models.ts types. */
const GENERATED_EVENTS = 'events.gen.ts';

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

// The generated events file is the backend module's too: it names models.ts types.
const inBackend = (f: string) => f.startsWith('backend/') || f === GENERATED_EVENTS;

describe('src imports', () => {
  it('finds the source files', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(specifiers("import { a,\n b } from './x';\nexport * from '../y';\n// import z from './z';\nconst m = import('./m');")).toEqual(['./x', '../y', './m']);
  });

  it('reach the Wails-generated code only in the backend module', () => {
    const stray = files.flatMap((f) =>
      inBackend(f) ? [] : (imports.get(f) ?? []).filter((s) => s.includes('wailsjs/')).map((s) => `${f} imports ${s}`),
    );
    expect(stray).toEqual([]);
  });

  it('reach the backend module through its index only', () => {
    const deep = files.flatMap((f) =>
      inBackend(f) ? [] : (imports.get(f) ?? []).filter((s) => inBackend(resolve(f, s) ?? '') && resolve(f, s) !== 'backend/index.ts').map((s) => `${f} imports ${s}`),
    );
    expect(deep).toEqual([]);
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

  it('form no cycle', () => {
    const graph = new Map(files.map((f) => [f, (imports.get(f) ?? []).filter((s) => s.startsWith('.')).flatMap((s) => resolve(f, s) ?? [])]));
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    // visit returns the first cycle reached from f, as a path back to its start.
    const visit = (f: string): string[] | null => {
      state.set(f, 'open');
      stack.push(f);
      for (const g of graph.get(f) ?? []) {
        if (state.get(g) === 'open') return [...stack.slice(stack.indexOf(g)), g];
        if (!state.has(g)) {
          const c = visit(g);
          if (c) return c;
        }
      }
      stack.pop();
      state.set(f, 'done');
      return null;
    };
    const cycle = [...files].sort().reduce<string[] | null>((found, f) => found ?? (state.has(f) ? null : visit(f)), null);
    expect(cycle?.join(' → ') ?? 'none').toBe('none');
  });
});
