import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { openChat, send, type ChatEvent, type ContextMeter, type Message } from '../../chat';
import { ChatPage } from './ChatPage';

const msg = (m: Partial<Message> & { id: string; role: string }): Message => ({
  chatId: 'c1', seq: 0, text: '', status: 'complete', error: '', model: '', inputTokens: 0, outputTokens: 0, createdAt: '', toolCalls: [], ...m,
});

const meter = (m: Partial<ContextMeter>): ContextMeter => ({ used: 0, window: 8000, limit: 6400, system: 0, tools: 0, history: 0, results: 0, ...m });

/** backend binds what the page calls, and keeps the chat event listener the store subscribes. */
function backend(messages: Message[]) {
  const on: { listener?: (ev: ChatEvent) => void } = {};
  (window as unknown as { runtime: unknown }).runtime = {
    EventsOnMultiple: (name: string, fn: (ev: ChatEvent) => void) => {
      if (name === 'chat:event') on.listener = fn;
      return () => {};
    },
  };
  const chatPage: Record<string, unknown> = {
    Chats: async () => [{ id: 'c1', title: 'A long chat' }],
    Chat: async () => ({ id: 'c1', title: 'A long chat', provider: '', model: '', options: {} }),
    ChatMessagesPage: async () => ({ messages, hasMore: false }),
    PendingRequests: async () => [],
    ChatOptionsOf: async () => ({}),
    RunningChats: async () => [],
    ChatContext: async () => meter({ used: 6000 }),
    SendMessage: async () => {},
  };
  const any = (own: Record<string, unknown> = {}) => new Proxy(own, { get: (o, k) => o[k as string] ?? (async () => null) });
  window.go = { gui: { Window: any({ Info: async () => ({}) }), ChatPage: any(chatPage), SettingsPage: any(), ToolsPage: any({ Tools: async () => ({ tools: [] }) }), AgentsPage: any({ Agents: async () => [] }), Content: any() } } as unknown as typeof window.go;
  let seq = 0;
  return (ev: Partial<ChatEvent> & { type: string }) => act(() => on.listener?.({ chatId: 'c1', seq: ++seq, ...ev } as ChatEvent));
}

describe('a message sent while the chat is summarised first', { timeout: 30_000 }, () => {
  afterEach(() => {
    window.go = undefined as unknown as typeof window.go;
    (window as unknown as { runtime: unknown }).runtime = undefined;
  });

  it('shows as waiting until it is stored after the summary', async () => {
    globalThis.CSS ??= { escape: (s: string) => s } as unknown as typeof CSS;
    const emit = backend([msg({ id: 'u1', seq: 1, role: 'user', text: 'first question' }), msg({ id: 'a1', seq: 2, role: 'assistant', text: 'an answer' })]);
    render(<ChatPage />);
    await act(() => openChat('c1'));
    await screen.findByText('first question');
    await act(async () => { await send('the next question'); });
    // Not summarising: the message shows when its own event comes, as ever.
    expect(screen.queryByTestId('message-sending')).toBeNull();

    await emit({ type: 'context', context: meter({ compacting: true }) });
    const waiting = await screen.findByTestId('message-sending');
    expect(waiting.textContent).toContain('the next question');
    expect(waiting.textContent).toContain('Summarising the earlier messages first');

    await emit({ type: 'message', role: 'summary', messageId: 's1', text: 'Notes.' });
    await emit({ type: 'message', role: 'user', messageId: 'u2', text: 'the next question' });
    await waitFor(() => expect(screen.queryByTestId('message-sending')).toBeNull());
    expect(screen.getAllByText('the next question')).toHaveLength(1);
  });
});
