import { describe, expect, it } from 'vitest';
import {
  addSummary, pageLabel, parseAdded, parseDocPage, parseExcerpt, parseHits, parseSearch, parseStore, parseStoreList, parseStores, snippetParts,
  source, storeLine, takeFiles, toBase64, tooLarge,
} from './knowledge';

describe('knowledge helpers', () => {
  it('splits highlighted snippets without interpreting other markup', () => {
    expect(snippetParts('a <mark>fox</mark> <b>x</b> <mark>jumps</mark>')).toEqual([
      { text: 'a ', mark: false },
      { text: 'fox', mark: true },
      { text: ' <b>x</b> ', mark: false },
      { text: 'jumps', mark: true },
    ]);
  });
});

describe('takeFiles', () => {
  it('empties the input, so the same file picked again is a change', () => {
    const file = new File(['a'], 'a.md');
    const input = { files: [file], value: 'C:\\fakepath\\a.md' };
    expect(takeFiles(input)).toEqual([file]);
    expect(input.value).toBe('');
  });
});

describe('toBase64', () => {
  it('encodes large arrays like btoa does small ones', () => {
    const bytes = new Uint8Array(100_000).map((_, i) => i % 256);
    const expected = Buffer.from(bytes).toString('base64');
    expect(toBase64(bytes)).toBe(expected);
  });
});

describe('tooLarge', () => {
  const MB = 1024 * 1024;
  it.each([
    ['fits', 10 * MB, 10 * MB, null],
    ['over, said in MB', 50 * MB, 10 * MB, 'big.txt is 50.0 MB; the content store takes files up to 10.0 MB. Split it into smaller files and add those.'],
    ['over by a little, said in bytes', 10 * MB + 14, 10 * MB,
      'big.txt is 10,485,774 bytes; the content store takes files up to 10,485,760 bytes (10.0 MB). Split it into smaller files and add those.'],
  ])('%s', (_, size, max, want) => expect(tooLarge('big.txt', size, max)).toBe(want));
});

describe('content store replies', () => {
  const info = { id: 's1', name: 'Notes', description: '', analyzer: 'en', documents: 2, chunks: 5, bytes: 2048 };
  const plain = { id: 's1', name: 'Notes', description: '', documents: 2, chunks: 5, bytes: 2048, error: '', inUse: false, interrupted: '', note: '' };
  it('reads stores from {stores} and from a bare list, dropping entries without an id', () => {
    expect(parseStores({ stores: [info, { name: 'no id' }, 'x'] })).toEqual([plain]);
    expect(parseStores([info])).toEqual([plain]);
    expect(parseStores({})).toEqual([]);
    expect(parseStore(null)).toBeNull();
  });
  it('reads a store another program holds, an interrupted add and the limit of a file', () => {
    const held = { ...info, error: 'store "s1" is in use by process 42 (switchboard daemon, since 10:00:00)', inUse: true,
      interrupted: { source: '/docs', message: 'adding /docs was cut short' }, note: 'made by an earlier version' };
    const list = parseStoreList({ stores: [held], maxFileBytes: 1234 });
    expect(list.maxFileBytes).toBe(1234);
    expect(list.stores[0]).toMatchObject({ inUse: true, interrupted: 'adding /docs was cut short', note: 'made by an earlier version' });
    expect(storeLine(list.stores[0]!)).toBe('in use by another program');
    expect(storeLine(plain)).toBe('2 documents · 2 KB');
    expect(parseStoreList([info]).maxFileBytes).toBe(10 * 1024 * 1024);
  });
  it('reads hits, the fields Go leaves out when empty as empty', () => {
    const hit = { storeId: 's1', contentId: 'c1', title: 'T', score: 1.5, fromLine: 3, toLine: 9, snippet: 'a <mark>b</mark>' };
    expect(parseHits({ query: 'b', total: 1, hits: [hit, { title: 'no content id' }] })).toEqual([{ ...hit, section: '', matchLines: [] }]);
    expect(parseHits({ hits: [{ ...hit, section: 'S', matchLines: [4, 'x', 5] }] })[0]).toMatchObject({ section: 'S', matchLines: [4, 5] });
    expect(parseHits('not an object')).toEqual([]);
  });
  it('reads the note of a search that can match nothing', () => {
    expect(parseSearch({ hits: [], note: 'nothing can match: the query has no words to search for', unavailable: ['x', 3] }))
      .toEqual({ hits: [], note: 'nothing can match: the query has no words to search for', unavailable: ['x'] });
  });
  it('reads an excerpt only when it has text', () => {
    expect(parseExcerpt({ contentId: 'c1', storeId: 's1', title: 'T', fromLine: 1, toLine: 2, totalLines: 9, text: 'hi', more: true, note: 'n' }))
      .toEqual({ contentId: 'c1', title: 'T', fromLine: 1, toLine: 2, text: 'hi', more: true, note: 'n' });
    expect(parseExcerpt({ contentId: 'c1' })).toBeNull();
  });
  it('reads a page of documents with its total', () => {
    const doc = { contentId: 'c1', title: 'T', file: 'notes.md', format: 'md', bytes: 10, chunks: 1, added: '2026-01-01T00:00:00Z' };
    const page = parseDocPage({ documents: [doc], total: 10001, offset: 100, more: true, nextOffset: 101 });
    expect(page).toMatchObject({ total: 10001, offset: 100, more: true });
    expect(pageLabel(page)).toBe('Showing 101–101 of 10,001');
    expect(pageLabel(parseDocPage({ documents: Array(100).fill(doc), total: 10001, offset: 0, more: true }))).toBe('Showing 1–100 of 10,001');
    expect(parseDocPage({ documents: [doc] })).toMatchObject({ total: 1, more: false }); // an older server: the list is all
    expect(source(page.docs[0]!)).toBe('notes.md, added here');
    expect(source({ ...page.docs[0]!, file: '', path: '/tmp/switchboard-doc-123/x.pdf' })).toBe('a file added here');
  });
  it('says what an add did', () => {
    expect(parseAdded({ contents: [{ title: 'Notes', replaced: true }] }, 'n.md')).toEqual({ title: 'Notes', replaced: true });
    expect(parseAdded({}, 'n.md')).toEqual({ title: 'n.md', replaced: false });
    expect(addSummary(2, ['n.md'], 0)).toBe('Added 2 files. Replaced n.md: a file of that name had been added before.');
    expect(addSummary(1, [], 3)).toBe('Added 1 file. Cancelled: 3 files not added.');
  });
});
