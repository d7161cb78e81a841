import { describe, expect, it } from 'vitest';
import { formatOf, parseExcerpt, parseHits, parseStore, parseStores, snippetParts, toBase64 } from './knowledge';

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

describe('content store replies', () => {
  const info = { id: 's1', name: 'Notes', description: '', analyzer: 'en', documents: 2, chunks: 5, bytes: 2048 };
  it('reads stores from {stores} and from a bare list, dropping entries without an id', () => {
    const want = { id: 's1', name: 'Notes', description: '', documents: 2, chunks: 5, bytes: 2048 };
    expect(parseStores({ stores: [info, { name: 'no id' }, 'x'] })).toEqual([want]);
    expect(parseStores([info])).toEqual([want]);
    expect(parseStores({})).toEqual([]);
    expect(parseStore(null)).toBeNull();
  });
  it('reads hits, the fields Go leaves out when empty as empty', () => {
    const hit = { storeId: 's1', contentId: 'c1', title: 'T', score: 1.5, fromLine: 3, toLine: 9, snippet: 'a <mark>b</mark>' };
    expect(parseHits({ query: 'b', total: 1, hits: [hit, { title: 'no content id' }] })).toEqual([{ ...hit, section: '', matchLines: [] }]);
    expect(parseHits({ hits: [{ ...hit, section: 'S', matchLines: [4, 'x', 5] }] })[0]).toMatchObject({ section: 'S', matchLines: [4, 5] });
    expect(parseHits('not an object')).toEqual([]);
  });
  it('reads an excerpt only when it has text', () => {
    expect(parseExcerpt({ contentId: 'c1', storeId: 's1', title: 'T', fromLine: 1, toLine: 2, totalLines: 9, text: 'hi', more: true }))
      .toEqual({ contentId: 'c1', title: 'T', fromLine: 1, toLine: 2, text: 'hi' });
    expect(parseExcerpt({ contentId: 'c1' })).toBeNull();
  });
});
