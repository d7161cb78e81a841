import { describe, expect, it } from 'vitest';
import { oldestSeq, prependPage, spliceTail, type Message } from './chat';

/** msg is a stored message (seq > 0) or one that streamed in (seq 0). */
function msg(seq: number, id = `m${seq}`, text = `text ${seq}`): Message {
  return { id, chatId: 'c', seq, role: seq % 2 ? 'user' : 'assistant', text, status: 'complete', error: '', model: '', inputTokens: 0, outputTokens: 0, createdAt: '', toolCalls: [] };
}
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => msg(from + i));
const seqs = (ms: Message[]) => ms.map((m) => m.seq);
const ids = (ms: Message[]) => ms.map((m) => m.id);

describe('spliceTail', () => {
  const cases: { name: string; have: Message[]; hasMore: boolean; page: Message[]; pageMore: boolean; want: string[]; wantMore: boolean }[] = [
    {
      name: 'a turn ended: older pages kept, streamed messages replaced by the stored tail',
      have: [...range(900, 1000), { ...msg(0, 'u-live'), role: 'user' }, { ...msg(0, 'a-live'), status: 'streaming' }],
      hasMore: true, page: range(953, 1002), pageMore: true,
      want: ids(range(900, 1002)), wantMore: true,
    },
    {
      name: 'the tail replaces stored messages it covers (their final text)',
      have: range(1, 10), hasMore: false, page: [msg(9), msg(10, 'm10', 'final text')], pageMore: true,
      want: ids(range(1, 10)), wantMore: false,
    },
    {
      name: 'more than a page was added: the tail alone, older ones load on scroll',
      have: range(951, 1000), hasMore: true, page: range(1071, 1120), pageMore: true,
      want: ids(range(1071, 1120)), wantMore: true,
    },
    {
      name: 'a new chat: only streamed messages, the tail is the whole chat',
      have: [msg(0, 'u-live'), msg(0, 'a-live')], hasMore: false, page: range(1, 2), pageMore: false,
      want: ['m1', 'm2'], wantMore: false,
    },
    {
      name: 'the chat is empty',
      have: [msg(0, 'u-live')], hasMore: false, page: [], pageMore: false,
      want: [], wantMore: false,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = spliceTail(c.have, c.hasMore, { messages: c.page, hasMore: c.pageMore });
      expect(ids(got.messages)).toEqual(c.want);
      expect(got.hasMore).toBe(c.wantMore);
    });
  }
  it('keeps the tail\'s version of a message it covers', () => {
    const got = spliceTail(range(1, 10), false, { messages: [msg(9), msg(10, 'm10', 'final text')], hasMore: true });
    expect(got.messages.at(-1)?.text).toBe('final text');
    expect(seqs(got.messages)).toEqual(seqs(range(1, 10)));
  });
  it('keeps the objects on screen for messages the tail did not change, so their views are not rendered again', () => {
    const have = range(1, 10);
    const got = spliceTail(have, false, { messages: [msg(9), msg(10, 'm10', 'final text')], hasMore: true });
    expect(got.messages[8]).toBe(have[8]); // unchanged: the same object
    expect(got.messages[9]).not.toBe(have[9]); // changed: the stored version
  });
});

describe('prependPage', () => {
  it('puts the older page first and takes its hasMore', () => {
    const got = prependPage(range(51, 100), { messages: range(1, 50), hasMore: false });
    expect(seqs(got.messages)).toEqual(seqs(range(1, 100)));
    expect(got.hasMore).toBe(false);
  });
  it('does not repeat a message already shown', () => {
    const got = prependPage(range(50, 60), { messages: range(45, 50), hasMore: true });
    expect(seqs(got.messages)).toEqual(seqs(range(45, 60)));
    expect(got.hasMore).toBe(true);
  });
});

describe('oldestSeq', () => {
  it.each([
    { name: 'stored messages', have: range(7, 9), want: 7 },
    { name: 'streamed ones skipped', have: [msg(0, 'x'), ...range(3, 4)], want: 3 },
    { name: 'none stored', have: [msg(0, 'x')], want: 0 },
    { name: 'empty', have: [], want: 0 },
  ])('$name', ({ have, want }) => {
    expect(oldestSeq(have)).toBe(want);
  });
});
