import { afterEach, describe, expect, it, vi } from 'vitest';
import { appendPage, chatState, isDraft, listed, loadChats, modelChanged, modelInUse, newChat, newestSeq, openChat, type Approval, type Chat, type Drafts, type Message } from './chat';
import type { host } from './backend';

const chat = (c: Partial<Chat> & { id: string }): Chat => ({
  title: '', provider: '', model: '', agent: '', options: {} as host.ChatOptions, createdAt: '', updatedAt: '', messageCount: 0, ...c,
});
function msg(seq: number): Message {
  return { id: `m${seq}`, chatId: 'c', seq, role: 'user', text: '', status: 'complete', error: '', model: '', inputTokens: 0, outputTokens: 0, createdAt: '', toolCalls: [] };
}
const state = (s: Partial<Drafts>): Drafts => ({ chats: [], current: '', running: {}, approvals: [], elicits: [], messages: [], ...s });

describe('isDraft and listed: a chat never used is not listed, the open one excepted', () => {
  const chats = [
    chat({ id: 'used', title: 'Plans', messageCount: 4 }),
    chat({ id: 'draft' }),
    chat({ id: 'named', title: 'Kept for later' }), // renamed by the user: kept
    chat({ id: 'busy' }), // its first turn runs
    chat({ id: 'asked' }), // a server asks something in it
  ];
  const s = state({
    chats, running: { busy: true },
    approvals: [{ id: 'a', chatId: 'asked' } as Approval],
  });
  it.each([
    { id: 'used', want: false },
    { id: 'draft', want: true },
    { id: 'named', want: false },
    { id: 'busy', want: false },
    { id: 'asked', want: false },
    { id: 'not-listed', want: false },
  ])('$id: draft $want', ({ id, want }) => {
    expect(isDraft(s, id)).toBe(want);
  });
  it('lists every chat but drafts; the open one is listed', () => {
    expect(listed(s).map((c) => c.id)).toEqual(['used', 'named', 'busy', 'asked']);
    expect(listed({ ...s, current: 'draft' }).map((c) => c.id)).toEqual(['used', 'draft', 'named', 'busy', 'asked']);
  });
  it('the open chat with messages shown is no draft (its list entry is older than them)', () => {
    expect(isDraft({ ...s, current: 'draft', messages: { length: 2 } }, 'draft')).toBe(false);
  });
});

describe('modelInUse', () => {
  const chats = [chat({ id: 'new', provider: 'Dead port', model: 'gpt-dead' }), chat({ id: 'c1', provider: 'Fake LLM', model: 'fake-model', messageCount: 6 })];
  it.each([
    { name: 'the open chat\'s', current: 'new', want: { provider: 'Dead port', model: 'gpt-dead' } },
    { name: 'else the last chat used\'s', current: '', want: { provider: 'Fake LLM', model: 'fake-model' } },
    { name: 'else the defaults', current: '', chats: [], want: { provider: '', model: '' } },
  ])('$name', ({ current, want, ...c }) => {
    expect(modelInUse({ chats: c.chats ?? chats, current })).toEqual(want);
  });
});

describe('appendPage', () => {
  const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => msg(a + i));
  it('adds what is past the newest message shown and takes the page\'s hasNewer', () => {
    const got = appendPage(range(10, 20), { messages: range(18, 30), hasMore: true, hasNewer: true });
    expect(got.messages.map((m) => m.seq)).toEqual(range(10, 30).map((m) => m.seq));
    expect(got.hasNewer).toBe(true);
    expect(appendPage(range(10, 20), { messages: range(21, 22), hasMore: true }).hasNewer).toBe(false);
  });
  it('newestSeq skips messages that streamed in (seq 0)', () => {
    expect(newestSeq([msg(4), msg(5), { ...msg(0), id: 'live' }])).toBe(5);
    expect(newestSeq([])).toBe(0);
  });
});

/** backend stands in for the chat methods New chat and leaving a chat call, recording them. */
function backend(chats: Chat[]) {
  const calls = { newChat: [] as string[][], deleted: [] as string[] };
  let made = 0;
  window.go = {
    gui: {
      Window: { Info: async () => ({}) },
      ChatPage: {
        Chats: async () => chats,
        PendingRequests: async () => [],
        Chat: async (id: string) => chats.find((c) => c.id === id),
        ChatMessagesPage: async () => ({ messages: [], hasMore: false }),
        NewChat: async (p: string, m: string) => {
          calls.newChat.push([p, m]);
          const c = chat({ id: `made${++made}`, provider: p, model: m });
          chats.unshift(c);
          return c;
        },
        DeleteChat: async (id: string) => {
          calls.deleted.push(id);
          chats.splice(chats.findIndex((c) => c.id === id), 1);
        },
      },
    },
  } as unknown as typeof window.go;
  return calls;
}

describe('New chat', () => {
  afterEach(() => {
    window.go = undefined as unknown as typeof window.go;
  });

  it('goes on with the model in use, as the header last set it, not the default provider', async () => {
    const calls = backend([chat({ id: 'c1', provider: 'Dead port', model: 'gpt-dead', messageCount: 2 })]);
    await loadChats();
    await openChat('c1');
    modelChanged('c1', 'Fake LLM', 'fake-model-with-a-long-name');
    await newChat();
    expect(calls.newChat).toEqual([['Fake LLM', 'fake-model-with-a-long-name']]);
  });

  it('on a chat never used makes no other: the composer takes the focus, and pressing it again adds nothing', async () => {
    const calls = backend([chat({ id: 'c1', provider: 'Fake', model: 'm', messageCount: 2 })]);
    await loadChats();
    await openChat('c1');
    const first = await newChat();
    expect(calls.newChat).toHaveLength(1);
    const focus = chatState().focus;
    expect(await newChat()).toBe(first);
    expect(await newChat()).toBe(first);
    expect(calls.newChat).toHaveLength(1);
    expect(chatState().current).toBe(first);
    expect(chatState().focus).toBe(focus + 2);
  });

  it('drops a chat never used when it is left, and keeps one with messages or a name', async () => {
    const calls = backend([
      chat({ id: 'used', messageCount: 2 }), chat({ id: 'draft' }), chat({ id: 'named', title: 'For later' }),
    ]);
    await loadChats();
    await openChat('used');
    await openChat('named');
    await openChat('draft');
    await openChat('used');
    await vi.waitFor(() => expect(calls.deleted).toEqual(['draft']));
    expect(chatState().chats.map((c) => c.id)).toEqual(['used', 'named']);
  });
});
