import { describe, expect, it } from 'vitest';
import { addNotice, MAX_NOTICES, type Notice } from './chat';

const n = (id: string, text: string, chatId = 'c1') => ({ id, chatId, server: 'sampler', kind: 'sampling', text });

describe('addNotice', () => {
  it('counts a repeated refusal on one line instead of stacking it', () => {
    let list: Notice[] = [];
    for (let i = 0; i < 5; i++) list = addNotice(list, n(`n${i}`, 'Refused: more than 3 times in a minute.'));
    expect(list).toHaveLength(1);
    expect(list[0]?.count).toBe(5);
  });
  it('keeps different notices, and the same text in another chat, apart', () => {
    let list = addNotice([], n('a', 'one'));
    list = addNotice(list, n('b', 'two'));
    list = addNotice(list, n('c', 'one', 'c2'));
    expect(list.map((x) => x.id)).toEqual(['a', 'b', 'c']);
  });
  it('keeps the latest few', () => {
    let list: Notice[] = [];
    for (let i = 0; i < MAX_NOTICES + 5; i++) list = addNotice(list, n(`n${i}`, `text ${i}`));
    expect(list).toHaveLength(MAX_NOTICES);
    expect(list[MAX_NOTICES - 1]?.id).toBe(`n${MAX_NOTICES + 4}`);
  });
});
