import { describe, expect, it } from 'vitest';
import { moreCursor } from './RegistryBrowse';
import type { gui } from '../backend';

const page = (nextCursor: string) => ({ servers: [], nextCursor } as unknown as gui.RegistryList);

describe('moreCursor', () => {
  it.each([
    ['no page yet', [], { cursor: '', repeated: false }],
    ['the last page', [page('a'), page('')], { cursor: '', repeated: false }],
    ['a next page', [page('a'), page('b')], { cursor: 'b', repeated: false }],
    ['a cursor the registry gave before', [page('a'), page('b'), page('a')], { cursor: '', repeated: true }],
    ['the same cursor again at once', [page('again'), page('again')], { cursor: '', repeated: true }],
  ])('%s', (_, pages, want) => {
    expect(moreCursor(pages)).toEqual(want);
  });
});
