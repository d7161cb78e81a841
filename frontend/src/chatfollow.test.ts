import { beforeEach, describe, expect, it } from 'vitest';
import { chatState, followTail, loadChats, openChat, send, type Chat, type ChatEvent, type Message } from './chat';
import type { host } from './backend';

/** msg is a stored message (seq > 0) or one that streamed in (seq 0). */
function msg(seq: number, id = `m${seq}`, text = `text ${seq}`): Message {
  return { id, chatId: 'c', seq, role: seq % 2 ? 'user' : 'assistant', text, status: 'complete', error: '', model: '', inputTokens: 0, outputTokens: 0, createdAt: '', toolCalls: [] };
}
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => msg(from + i));
const ids = (ms: Message[]) => ms.map((m) => m.id);

describe('followTail', () => {
  const cases: { name: string; have: Message[]; from: number; page: Message[]; want: string[] | null }[] = [
    { name: 'another process answered: its messages come after the newest shown', have: range(1, 4), from: 4, page: range(4, 6), want: ids(range(1, 6)) },
    { name: 'its turn is still running: the answer stored so far replaces the one shown', have: range(1, 6), from: 6, page: [msg(6, 'm6', 'more of the answer')], want: ids(range(1, 6)) },
    { name: 'a page reaching back before from (a short chat): only from on is laid over', have: range(1, 4), from: 4, page: range(1, 5), want: ids(range(1, 5)) },
    { name: 'nothing was shown: the page is the chat', have: [], from: 0, page: range(1, 3), want: ids(range(1, 3)) },
    { name: 'an earlier message was edited there (another message at from): read the last page', have: range(1, 6), from: 6, page: [msg(6, 'other'), msg(7)], want: null },
    { name: 'the message at from is gone: read the last page', have: range(1, 6), from: 6, page: [msg(7)], want: null },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = followTail(c.have, true, { messages: c.page, hasMore: false }, c.from);
      expect(got && ids(got.messages)).toEqual(c.want);
    });
  }
  it('keeps the text the other process stored last', () => {
    const got = followTail(range(1, 6), true, { messages: [msg(6, 'm6', 'more of the answer'), msg(7)], hasMore: true }, 6);
    expect(got?.messages.map((m) => m.text).slice(-2)).toEqual(['more of the answer', 'text 7']);
    expect(got?.hasMore).toBe(true); // older pages still load on scroll
  });
  it('returns the messages shown, the same array and objects, when nothing changed', () => {
    const have = range(1, 6);
    const got = followTail(have, false, { messages: range(4, 6), hasMore: true }, 6);
    expect(got?.messages).toBe(have);
  });
  it('keeps the objects of messages the page did not change', () => {
    const have = range(1, 6);
    const got = followTail(have, false, { messages: [msg(6), msg(7)], hasMore: true }, 6);
    expect(got?.messages[5]).toBe(have[5]);
    expect(got?.messages[0]).toBe(have[0]);
  });
});

// The store listens once, for the whole file (at its first loadChats): the tests' events go
// through these. The runtime is put back before each test (test-setup.ts removes it after each).
const listeners = new Map<string, (x: unknown) => unknown>();
beforeEach(() => {
  (window as unknown as { runtime: unknown }).runtime = {
    EventsOnMultiple: (name: string, fn: (x: unknown) => unknown) => {
      listeners.set(name, fn);
      return () => {};
    },
  };
});

/** fakeHistory is history.db as the Go side reads it, another process writing to it. */
function fakeHistory() {
  const stored: Record<string, Message[]> = { c: range(1, 4), d: range(1, 2).map((m) => ({ ...m, chatId: 'd', id: `d${m.seq}` })) };
  const titles: Record<string, string> = { c: 'Open chat', d: 'Other chat' };
  let order = ['c', 'd'];
  const reads: string[] = [];
  const view = (id: string): Chat => ({ id, title: titles[id]!, provider: '', model: '', agent: '', options: {} as host.ChatOptions, createdAt: '', updatedAt: '', messageCount: stored[id]!.length });
  const page = (id: string, before: number, limit: number): host.MessagePageView => {
    reads.push(`${id} before ${before} limit ${limit}`);
    const ms = stored[id]!.filter((m) => before <= 0 || m.seq < before);
    return { messages: ms.slice(-limit), hasMore: ms.length > limit, hasNewer: false } as host.MessagePageView;
  };
  let release: () => void = () => {};
  let held: Promise<void> | null = null;
  window.go = {
    gui: {
      Window: { Info: async () => ({}) },
      ChatPage: {
        Chats: async () => {
          await held;
          return order.map(view);
        },
        Chat: async (id: string) => view(id),
        PendingRequests: async () => [],
        RunningChats: async () => [],
        ChatMessagesPage: async (id: string, before: number, limit: number) => page(id, before, limit),
        SendMessage: async () => {},
      },
    },
  } as unknown as typeof window.go;
  return {
    reads,
    /** write is another process's commit, then the Go side's event. */
    write(id: string, ms: Message[], title?: string) {
      stored[id] = [...stored[id]!.filter((m) => !ms.some((n) => n.seq === m.seq)), ...ms].sort((a, b) => a.seq - b.seq);
      if (title) titles[id] = title;
      order = [id, ...order.filter((x) => x !== id)];
    },
    /** changed is the Go side's event; it resolves when the store has read what it says. */
    changed: () => listeners.get('chats:changed')?.(null) as Promise<void>,
    chatEvent: (ev: ChatEvent) => listeners.get('chat:event')?.(ev),
    /** hold keeps the next list reads waiting until the returned function runs. */
    hold() {
      held = new Promise((resolve) => { release = resolve; });
      return () => { held = null; release(); };
    },
  };
}

describe('following another process', () => {
  it('shows the turn another process stored in the open chat, as it runs and when it ends, and the list in its order', async () => {
    const db = fakeHistory();
    await loadChats();
    await openChat('c');
    expect(ids(chatState().messages)).toEqual(ids(range(1, 4)));

    // 'switchboard chat --chat c' stores its question and the answer so far.
    db.write('c', [msg(5), msg(6, 'm6', 'half')]);
    db.write('d', [], 'Other chat, renamed'); // and another chat moves to the top, renamed
    db.reads.length = 0;
    await db.changed();
    expect(chatState().messages.map((m) => m.text).slice(-2)).toEqual(['text 5', 'half']);
    expect(chatState().chats.map((c) => c.title)).toEqual(['Other chat, renamed', 'Open chat']);
    expect(db.reads).toEqual(['c before 7 limit 3']); // from the newest shown on, not the whole page

    // Its turn ends: the answer is complete.
    db.write('c', [msg(6, 'm6', 'the whole answer')]);
    await db.changed();
    expect(ids(chatState().messages)).toEqual(ids(range(1, 6)));
    expect(chatState().messages.at(-1)?.text).toBe('the whole answer');
  });

  it('reads once more, not once per event, when events come during a read', async () => {
    const db = fakeHistory();
    await loadChats();
    await openChat('c');
    const release = db.hold();
    db.write('c', [msg(5)]);
    const reading = db.changed();
    db.write('c', [msg(6)]);
    void db.changed();
    void db.changed();
    db.reads.length = 0;
    release();
    await reading;
    expect(ids(chatState().messages)).toEqual(ids(range(1, 6)));
    expect(db.reads.length).toBe(2); // the first read, and one for the two events during it
  });

  it('leaves the window\'s own running turn to its events: nothing shows twice', async () => {
    const db = fakeHistory();
    await loadChats();
    await openChat('c');
    await send('mine');
    db.chatEvent({ chatId: 'c', seq: 1, type: 'message', messageId: 'm5', role: 'user', text: 'mine' } as ChatEvent);
    db.chatEvent({ chatId: 'c', seq: 2, type: 'message', messageId: 'm6', role: 'assistant' } as ChatEvent);
    // Our own writes: Go sends no event for them, but were one to come (another process wrote
    // elsewhere meanwhile), the turn streaming in stays as it is.
    db.write('c', [{ ...msg(5), text: 'mine' }, { ...msg(6), status: 'incomplete' }]);
    db.reads.length = 0;
    await db.changed();
    expect(chatState().messages.filter((m) => m.text === 'mine')).toHaveLength(1);
    expect(chatState().messages.at(-1)).toMatchObject({ id: 'm6', seq: 0 }); // still the one streaming
    expect(db.reads).toEqual([]);
  });
});
