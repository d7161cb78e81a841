import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyEvent, chatState, openChat, type Message } from '../../chat';
import { ChatPage } from './ChatPage';
import { splitError } from './MessageActions';

const msg = (m: Partial<Message> & { id: string; role: string }): Message => ({
  chatId: 'c1', seq: 0, text: '', status: 'complete', error: '', model: '', inputTokens: 0, outputTokens: 0, createdAt: '', toolCalls: [], ...m,
});

const AUTH_ERROR = 'The provider "fake" refused the API key. Check the key in Settings → Models.\n\n' +
  'provider "fake" rejected the API key (HTTP 401: Incorrect API key provided); fix the key in Settings → Models';

/** conversation is two exchanges; the last answer is replaced by tail when given. */
function conversation(tail?: Partial<Message>): Message[] {
  return [
    msg({ id: 'u1', seq: 1, role: 'user', text: 'first question' }),
    msg({ id: 'a1', seq: 2, role: 'assistant', text: 'first **answer**' }),
    msg({ id: 'u2', seq: 3, role: 'user', text: 'second question' }),
    msg({ id: 'a2', seq: 4, role: 'assistant', text: 'Second answer with `code`', ...tail }),
  ];
}

/** backend binds the chat methods the page calls; every other binding answers null. */
function backend(messages: Message[], chatId: string) {
  const calls = { retry: [] as string[], edit: [] as string[][] };
  const chatPage: Record<string, unknown> = {
    Chats: async () => [{ id: chatId, title: 'A chat' }],
    Chat: async () => ({ id: chatId, title: 'A chat', provider: '', model: '', options: {} }),
    ChatMessagesPage: async () => ({ messages, hasMore: false }),
    PendingRequests: async () => [],
    ChatOptionsOf: async () => ({}),
    RetryAnswer: async (id: string) => { calls.retry.push(id); },
    EditMessage: async (id: string, mid: string, text: string) => { calls.edit.push([id, mid, text]); },
  };
  const any = (own: Record<string, unknown> = {}) => new Proxy(own, { get: (o, k) => o[k as string] ?? (async () => null) });
  window.go = { gui: { Window: any({ Info: async () => ({}) }), ChatPage: any(chatPage), SettingsPage: any(), ToolsPage: any({ Tools: async () => ({ tools: [] }) }), AgentsPage: any({ Agents: async () => [] }), Content: any() } } as unknown as typeof window.go;
  return calls;
}

/** chats counts the chats shown: each test has its own, so one left running does not leak into the next. */
let chats = 0;

async function show(messages: Message[]) {
  const id = `c${++chats}`;
  const calls = backend(messages, id);
  render(<ChatPage />);
  await act(() => openChat(id));
  await screen.findByText('first question');
  return { ...calls, id };
}

// The whole page renders in each test; generous time for a loaded machine.
describe('message actions', { timeout: 30_000 }, () => {
  let written: string[];
  beforeEach(() => {
    written = [];
    // jsdom has no CSS.escape, which the message list uses to find a message by id.
    globalThis.CSS ??= { escape: (s: string) => s } as unknown as typeof CSS;
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (t: string) => { written.push(t); } } });
  });
  afterEach(() => {
    window.go = undefined as unknown as typeof window.go;
  });

  it('copies an answer as its raw Markdown', async () => {
    await show(conversation());
    const answers = screen.getAllByTestId('message-assistant');
    const copy = within(answers[0]!).getByRole('button', { name: 'Copy the answer as Markdown' });
    await userEvent.click(copy);
    expect(written).toEqual(['first **answer**']);
    await within(answers[0]!).findByText('Copied');
  });

  it('offers Retry on the last answer only, and retries the open chat', async () => {
    const calls = await show(conversation());
    const answers = screen.getAllByTestId('message-assistant');
    expect(within(answers[0]!).queryByRole('button', { name: /Retry/ })).toBeNull();
    await userEvent.click(within(answers[1]!).getByRole('button', { name: /^Retry/ }));
    expect(calls.retry).toEqual([calls.id]);
    expect(chatState().running[calls.id]).toBe(true);
    // While the new answer streams, no Retry or Edit is offered.
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Retry|Edit/ })).toBeNull());
    expect(screen.getByRole('button', { name: 'Stop the answer' })).toBeTruthy();
  });

  it('shows a provider error in plain words, the detail behind a disclosure, and Retry', async () => {
    const calls = await show(conversation({ text: '', status: 'error', error: AUTH_ERROR }));
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText('The provider "fake" refused the API key. Check the key in Settings → Models.')).toBeTruthy();
    const details = alert.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(within(details).getByText('Technical details')).toBeTruthy();
    expect(details.querySelector('pre')!.textContent).toMatch(/HTTP 401: Incorrect API key provided/);
    await userEvent.click(within(alert).getByRole('button', { name: /Retry/ }));
    expect(calls.retry).toEqual([calls.id]);
  });

  it('says an answer the app stopped in (no error stored) was cut off, and offers Retry', async () => {
    const calls = await show(conversation({ text: 'The first half of', status: 'incomplete', error: '' }));
    const answer = screen.getAllByTestId('message-assistant')[1]!;
    expect(within(answer).getByText('The first half of')).toBeTruthy();
    expect(within(answer).getByText(/^The answer was cut off: Switchboard stopped before the model finished/)).toBeTruthy();
    await userEvent.click(within(answer).getByRole('button', { name: /^Retry/ }));
    expect(calls.retry).toEqual([calls.id]);
  });

  it('edits the last message with ↑ in the empty composer; Esc cancels', async () => {
    const calls = await show(conversation());
    const box = screen.getByRole('textbox', { name: 'Message' });
    box.focus();
    await userEvent.keyboard('{ArrowUp}');
    const edit = await screen.findByRole('textbox', { name: 'Edit message' });
    expect((edit as HTMLTextAreaElement).value).toBe('second question');
    expect(document.activeElement).toBe(edit);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Edit message' })).toBeNull();
    expect(screen.getByText('second question')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(box));
    // ↑ in a composer with text moves the caret as usual.
    await userEvent.type(box, 'draft');
    await userEvent.keyboard('{ArrowUp}');
    expect(screen.queryByRole('textbox', { name: 'Edit message' })).toBeNull();
    // Editing the last message replaces only its own answer: no question asked.
    await userEvent.clear(box);
    await userEvent.keyboard('{ArrowUp}');
    const again = await screen.findByRole('textbox', { name: 'Edit message' });
    await userEvent.clear(again);
    await userEvent.type(again, 'second, better{Enter}');
    expect(calls.edit).toEqual([[calls.id, 'u2', 'second, better']]);
  });

  it('asks before an earlier message is resent over the later ones', async () => {
    const calls = await show(conversation());
    const first = screen.getAllByTestId('message-user')[0]!;
    await userEvent.click(within(first).getByRole('button', { name: 'Edit and resend this message' }));
    const edit = within(first).getByRole('textbox', { name: 'Edit message' });
    await userEvent.clear(edit);
    await userEvent.type(edit, 'first, rephrased');
    await userEvent.click(within(first).getByRole('button', { name: 'Resend' }));
    const ask = within(first).getByRole('alertdialog', { name: 'Replace the later messages?' });
    expect(ask.textContent).toMatch(/replaces the 3 later messages/);
    expect(calls.edit).toEqual([]);
    await userEvent.click(within(ask).getByRole('button', { name: 'Replace and resend' }));
    expect(calls.edit).toEqual([[calls.id, 'u1', 'first, rephrased']]);
  });
});

describe('a retried or edited turn', () => {
  it('drops what followed the user message it starts from, with the edited text', () => {
    const msgs = applyEvent(conversation(), { chatId: 'c1', seq: 9, type: 'message', messageId: 'u1', role: 'user', text: 'first, rephrased' });
    expect(msgs.map((m) => [m.id, m.text])).toEqual([['u1', 'first, rephrased']]);
    const retried = applyEvent(conversation(), { chatId: 'c1', seq: 9, type: 'message', messageId: 'u2', role: 'user', text: 'second question' });
    expect(retried.map((m) => m.id)).toEqual(['u1', 'a1', 'u2']);
  });

  it('splits a stored error into plain words and detail', () => {
    expect(splitError(AUTH_ERROR).plain).toMatch(/^The provider "fake" refused the API key\./);
    expect(splitError(AUTH_ERROR).detail).toMatch(/^provider "fake" rejected/);
    expect(splitError('socket closed')).toEqual({ plain: 'socket closed', detail: '' });
  });
});
