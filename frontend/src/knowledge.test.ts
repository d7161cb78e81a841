import { describe, expect, it } from 'vitest';
import { formatOf, snippetParts, toBase64 } from './knowledge';

describe('knowledge helpers', () => {
  it('splits highlighted snippets without interpreting other markup', () => {
    expect(snippetParts('a <mark>fox</mark> <b>x</b> <mark>jumps</mark>')).toEqual([
      { text: 'a ', mark: false },
      { text: 'fox', mark: true },
      { text: ' <b>x</b> ', mark: false },
      { text: 'jumps', mark: true },
    ]);
  });
  it.each([
    ['notes.md', 'md'],
    ['page.HTML', 'html'],
    ['main.go', 'code'],
    ['data.csv', 'csv'],
    ['README', 'txt'],
  ])('%s → %s', (name, want) => expect(formatOf(name)).toBe(want));
});

describe('toBase64', () => {
  it('encodes large arrays like btoa does small ones', () => {
    const bytes = new Uint8Array(100_000).map((_, i) => i % 256);
    const expected = Buffer.from(bytes).toString('base64');
    expect(toBase64(bytes)).toBe(expected);
  });
});
