import { act, fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { openChat, send, type Chat, type Message } from '../../chat';
import type { host } from '../../backend';
import { ChatPage } from './ChatPage';

// A turn another process ('switchboard chat --chat ID') runs in the chat shown comes in through
// the Go side's EventChatsChanged; the window's own turn through its chat events.

function msg(seq: number, text = `msg number ${seq}`): Message {
  return { id: `m${seq}`, chatId: 'c', seq, role: seq % 2 ? 'user' : 'assistant', text, status: 'complete', error: '', model: '', inputTokens: 0, outputTokens: 0, createdAt: '', toolCalls: [] };
}
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => msg(a + i));

// The store listens once for the whole file: its listeners land here.
const listeners = new Map<string, (x: unknown) => unknown>();
beforeEach(() => {
  // jsdom has no CSS.escape, which the message list uses to find a message by id.
  globalThis.CSS ??= { escape: (s: string) => s } as unknown as typeof CSS;
  (window as unknown as { runtime: unknown }).runtime = {
    EventsOnMultiple: (name: string, fn: (x: unknown) => unknown) => {
      listeners.set(name, fn);
      return () => {};
    },
  };
});

/** history is history.db as the Go side reads it; write is another process's commit. */
function history(stored: Message[]) {
  const chat = (): Chat => ({ id: 'c', title: 'Followed', provider: 'Fake', model: 'm', agent: '', options: {} as host.ChatOptions, createdAt: '', updatedAt: '', messageCount: stored.length });
  const chatPage: Record<string, unknown> = {
    Chats: async () => [chat()],
    Chat: async () => chat(),
    PendingRequests: async () => [],
    ChatOptionsOf: async () => ({}),
    ChatMessagesPage: async (_id: string, before: number, limit: number) => {
      const ms = stored.filter((m) => before <= 0 || m.seq < before);
      return { messages: ms.slice(-limit), hasMore: ms.length > limit };
    },
    SendMessage: async () => {},
  };
  const any = (o: Record<string, unknown> = {}) => new Proxy(o, { get: (t, k) => t[k as string] ?? (async () => null) });
  window.go = {
    gui: {
      Window: any({ Info: async () => ({}) }), ChatPage: any(chatPage), SettingsPage: any(), ToolsPage: any({ Tools: async () => ({ tools: [] }) }),
      AgentsPage: any({ Agents: async () => [] }), Content: any(),
    },
  } as unknown as typeof window.go;
  return {
    write: (...ms: Message[]) => { stored.push(...ms); },
    changed: () => act(async () => { await listeners.get('chats:changed')?.(null); }),
  };
}

/** scrolled fakes the list's layout: content of 5000 px in a 400 px view, at top. */
function scrolled(top: number) {
  const el = document.querySelector('.messages') as HTMLDivElement;
  let at = top;
  Object.defineProperty(el, 'scrollHeight', { configurable: true, get: () => 5000 });
  Object.defineProperty(el, 'clientHeight', { configurable: true, get: () => 400 });
  Object.defineProperty(el, 'scrollTop', { configurable: true, get: () => at, set: (v: number) => { at = Math.min(v, 4600); } });
  at = 4600;
  fireEvent.scroll(el);
  at = top;
  fireEvent.scroll(el); // the user moved up: the view no longer follows the end
  return () => at;
}

describe('a turn another process runs in the chat shown', () => {
  it('shows up without a reload, and leaves the view where the user reads, with New ↓', async () => {
    const db = history(range(1, 10));
    render(<ChatPage />);
    await act(() => openChat('c'));
    const top = scrolled(3000);
    db.write(msg(11, 'asked from the terminal')); // its turn runs: the question is stored first
    await db.changed();
    expect(screen.getByText('asked from the terminal')).toBeTruthy();
    expect(top()).toBe(3000);
    db.write(msg(12, 'answered in the terminal'));
    await db.changed();
    expect(screen.getByText('answered in the terminal')).toBeTruthy();
    expect(top()).toBe(3000);
    expect(screen.getByRole('button', { name: 'New messages below: scroll to the end' })).toBeTruthy();
  });

  it('follows the end for a question the window itself sends', async () => {
    history(range(1, 10));
    render(<ChatPage />);
    await act(() => openChat('c'));
    const top = scrolled(3000);
    await act(async () => { await send('asked here'); });
    act(() => { listeners.get('chat:event')?.({ chatId: 'c', seq: 1, type: 'message', messageId: 'm11', role: 'user', text: 'asked here' }); });
    expect(screen.getByText('asked here')).toBeTruthy();
    expect(top()).toBe(4600);
  });
});
