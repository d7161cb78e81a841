import { describe, expect, it } from 'vitest';
import { formatOf, snippetParts } from './knowledge';

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
