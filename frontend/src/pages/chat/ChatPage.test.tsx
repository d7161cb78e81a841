import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_PAGE, newChat, openChat, PAGE, send, watchRequests, type Chat, type ChatEvent, type Message } from '../../chat';
import type { host } from '../../backend';
import { ChatPage, TurnNotice } from './ChatPage';

// A chat short enough to be rendered whole (jsdom lays nothing out for the virtual list of a longer one).
const N = 40;
function msg(seq: number, chatId = 'long'): Message {
  return {
    id: `m${seq}`, chatId, seq, role: seq % 2 ? 'user' : 'assistant', text: `msg number ${seq}`, status: 'complete', error: '', model: '',
    inputTokens: 0, outputTokens: 0, createdAt: '', toolCalls: [],
  };
}
const range = (a: number, b: number, chatId?: string) => Array.from({ length: Math.max(0, b - a + 1) }, (_, i) => msg(a + i, chatId));
const chat = (c: Partial<Chat> & { id: string }): Chat => ({
  title: '', provider: 'Fake', model: 'm', agent: '', options: {} as host.ChatOptions, createdAt: '', updatedAt: '', messageCount: 0, ...c,
});

/** page is what ChatMessagesPage reads of a chat of n messages: up to limit before seq before (0: the end). */
function page(n: number, before: number, limit: number, chatId?: string): host.MessagePageView {
  const end = before > 0 ? Math.min(before - 1, n) : n;
  const from = Math.max(1, end - limit + 1);
  return { messages: range(from, end, chatId), hasMore: from > 1, hasNewer: before > 0 && before <= n };
}

/** backend binds the chat methods the page calls, recording the ones the tests look at; every other binding answers null. */
function backend(chats: Chat[], own: Record<string, unknown> = {}) {
  const calls = { around: [] as unknown[][], pages: [] as number[][], sent: [] as string[] };
  const chatPage: Record<string, unknown> = {
    Chats: async () => chats,
    Chat: async (id: string) => chats.find((c) => c.id === id),
    PendingRequests: async () => [],
    ChatOptionsOf: async () => ({}),
    SearchChats: async () => [{ chatId: 'long', title: 'Long', messageId: 'm10', snippet: 'msg <mark>number</mark> <mark>10</mark>', rank: 1 }],
    ChatMessagesAround: async (id: string, mid: string, limit: number) => {
      calls.around.push([id, mid, limit]);
      return page(N, Number(mid.slice(1)) + limit / 2 + 1, limit);
    },
    ChatMessagesPage: async (id: string, before: number, limit: number) => {
      calls.pages.push([before, limit]);
      return id === 'long' ? page(N, before, limit) : { messages: [], hasMore: false };
    },
    SendMessage: async (_id: string, text: string) => { calls.sent.push(text); },
    ...own,
  };
  const any = (o: Record<string, unknown> = {}) => new Proxy(o, { get: (t, k) => t[k as string] ?? (async () => null) });
  window.go = {
    gui: {
      Window: any({ Info: async () => ({}) }), ChatPage: any(chatPage), SettingsPage: any(), ToolsPage: any({ Tools: async () => ({ tools: [] }) }),
      AgentsPage: any({ Agents: async () => [] }), Content: any(),
    },
  } as unknown as typeof window.go;
  return calls;
}

const shown = () => screen.getAllByRole('article').map((a) => Number(a.getAttribute('data-seq')));
const article = (seq: number) => document.querySelector(`article[data-seq="${seq}"]`);

// The whole page renders in each test; generous time for a loaded machine.
describe('the chat page', { timeout: 30_000 }, () => {
  beforeEach(() => {
    // jsdom has no CSS.escape, which the message list uses to find a message by id.
    globalThis.CSS ??= { escape: (s: string) => s } as unknown as typeof CSS;
  });
  afterEach(() => {
    window.go = undefined as unknown as typeof window.go;
    vi.useRealTimers();
  });

  it('opens a chat search hit at its message, marked, and pages on to the end from there', async () => {
    const calls = backend([chat({ id: 'long', title: 'Long', messageCount: N })]);
    render(<ChatPage />);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search chats' }), 'number 57');
    const hits = await screen.findByRole('list', { name: 'Search results' });
    await userEvent.click(within(hits).getByRole('button', { name: /Long/ }));
    await waitFor(() => expect(article(10)).not.toBeNull());
    expect(calls.around).toEqual([['long', 'm10', PAGE]]);
    expect(article(10)?.className).toContain('found');
    expect(shown()).not.toContain(N); // opened at the hit, not at the end
    expect(article(9)?.className).not.toContain('found');
    // Scrolling down reads the next page (here its button), up to the end.
    const later = screen.getByRole('button', { name: 'Load later messages' });
    await userEvent.click(later);
    await waitFor(() => expect(article(N)).not.toBeNull());
    // The hit's page ends at 10 + PAGE/2: the next one is the PAGE messages after it.
    expect(calls.pages).toEqual([[10 + PAGE / 2 + PAGE + 1, PAGE]]);
    expect(shown()).toEqual(range(1, N).map((m) => m.seq));
    expect(screen.queryByRole('button', { name: 'Load later messages' })).toBeNull();
  });

  it('shows the end before a message is sent in a chat opened at a search hit', async () => {
    const calls = backend([chat({ id: 'long', title: 'Long', messageCount: N })]);
    render(<ChatPage />);
    await act(() => openChat('long', { at: 'm10' }));
    expect(shown()).not.toContain(N);
    await act(async () => { await send('and now?'); });
    expect(calls.pages).toContainEqual([0, FIRST_PAGE]);
    expect(shown()).toContain(N);
    expect(calls.sent).toEqual(['and now?']);
  });

  it('marks the chats answering or waiting for an answer in the list', async () => {
    backend([chat({ id: 'a', title: 'Quiet', messageCount: 2 }), chat({ id: 'b', title: 'Busy', messageCount: 2 }), chat({ id: 'c', title: 'Asking', messageCount: 2 })], {
      PendingRequests: async () => [{ approval: { id: 'ap', chatId: 'c', server: 's', tool: 't', args: '{}' } }],
    });
    render(<ChatPage />);
    await act(() => openChat('b'));
    await act(async () => { await send('go on'); });
    await act(() => openChat('a'));
    const list = screen.getByRole('navigation', { name: 'Chats' });
    expect(await within(list).findByRole('button', { name: 'Busy, answering' })).toBeTruthy();
    expect(within(list).getByRole('button', { name: 'Asking, waiting for your answer' })).toBeTruthy();
    expect(within(list).getByRole('button', { name: 'Quiet' })).toBeTruthy();
  });

  it('offers a ↓ to the latest message whenever the view is more than a screen from the end', async () => {
    backend([chat({ id: 'short', title: 'Short', messageCount: 10 })], {
      ChatMessagesPage: async () => ({ messages: range(1, 10, 'short'), hasMore: false }),
    });
    render(<ChatPage />);
    await act(() => openChat('short'));
    const el = document.querySelector('.messages') as HTMLDivElement;
    let top = 0;
    Object.defineProperty(el, 'scrollHeight', { configurable: true, get: () => 5000 });
    Object.defineProperty(el, 'clientHeight', { configurable: true, get: () => 400 });
    Object.defineProperty(el, 'scrollTop', { configurable: true, get: () => top, set: (v: number) => { top = Math.min(v, 4600); } });
    top = 4600;
    fireEvent.scroll(el);
    expect(screen.queryByRole('button', { name: 'Jump to the latest message' })).toBeNull();
    top = 3000; // a screen and more above the end, with nothing new coming
    fireEvent.scroll(el);
    const down = await screen.findByRole('button', { name: 'Jump to the latest message' });
    await userEvent.click(down);
    expect(top).toBe(4600);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Jump to the latest message' })).toBeNull());
  });

  it('puts the cursor in the message box when New chat is pressed on a chat still empty', async () => {
    backend([chat({ id: 'empty' })], { ChatMessagesPage: async () => ({ messages: [], hasMore: false }) });
    render(<ChatPage />);
    await act(() => openChat('empty'));
    const box = screen.getByRole('textbox', { name: 'Message' });
    const search = screen.getByRole('searchbox', { name: 'Search chats' });
    search.focus();
    await act(async () => { await newChat(); });
    expect(document.activeElement).toBe(box);
  });
});

// The Go side's chat events, through the runtime the store listens on.
let listener: ((ev: ChatEvent) => void) | undefined;

describe('the rate-limit notice', () => {
  afterEach(() => {
    window.go = undefined as unknown as typeof window.go;
    vi.useRealTimers();
  });

  it('counts down to the retry, in the warning style, and is read out once', async () => {
    backend([chat({ id: 'limited', messageCount: 2 })]);
    (window as unknown as { runtime: unknown }).runtime = {
      EventsOnMultiple: (name: string, fn: (ev: ChatEvent) => void) => {
        if (name === 'chat:event') listener = fn;
        return () => {};
      },
    };
    watchRequests();
    await openChat('limited');
    vi.useFakeTimers();
    render(<TurnNotice />);
    act(() => listener?.({ chatId: 'limited', seq: 1, type: 'retry', messageId: 'a1', retryAfterMs: 30_000 }));
    const note = screen.getByRole('status');
    expect(note.className).toContain('notice-card');
    expect(note.className).not.toMatch(/(^|\s)notice(\s|$)/);
    expect(note.textContent).toContain('retrying in 30 s…');
    act(() => { vi.advanceTimersByTime(9_000); });
    expect(note.textContent).toContain('retrying in 21 s…');
    // What a screen reader hears does not change each second.
    expect(note.querySelector('.visually-hidden')?.textContent).toBe('The provider is rate-limited; retrying in 30 seconds.');
    act(() => { vi.advanceTimersByTime(21_000); });
    expect(note.textContent).toContain('retrying now…');
    act(() => listener?.({ chatId: 'limited', seq: 2, type: 'text', messageId: 'a1', text: 'Hi' }));
    act(() => { vi.advanceTimersByTime(100); });
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('has Retry now, from the keyboard, which asks the Go side to retry at once', async () => {
    const woken: string[] = [];
    backend([chat({ id: 'limited', messageCount: 2 })], { RetryNow: async (id: string) => { woken.push(id); return true; } });
    (window as unknown as { runtime: unknown }).runtime = {
      EventsOnMultiple: (name: string, fn: (ev: ChatEvent) => void) => {
        if (name === 'chat:event') listener = fn;
        return () => {};
      },
    };
    watchRequests();
    await openChat('limited');
    render(<TurnNotice />);
    // The events go on from the last test's (one store, one listener): a later seq.
    act(() => listener?.({ chatId: 'limited', seq: 3, type: 'retry', messageId: 'a1', retryAfterMs: 50_000 }));
    const note = screen.getByRole('status');
    expect(note.textContent).toContain('retrying in 50 s…');
    await userEvent.tab();
    const button = screen.getByRole('button', { name: 'Retry now' });
    expect(document.activeElement).toBe(button);
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(note.textContent).toContain('retrying now…'));
    expect(woken).toEqual(['limited']);
    // The wait is over: nothing is left to cut short.
    expect(screen.queryByRole('button', { name: 'Retry now' })).toBeNull();
    // The provider limits the retry too: the new wait counts down in full, with its own Retry now.
    act(() => listener?.({ chatId: 'limited', seq: 4, type: 'retry', messageId: 'a1', retryAfterMs: 20_000 }));
    await waitFor(() => expect(note.textContent).toContain('retrying in 20 s…'));
    expect(screen.getByRole('button', { name: 'Retry now' })).toBeTruthy();
  });
});
