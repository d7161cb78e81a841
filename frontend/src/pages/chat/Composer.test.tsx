import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openChat } from '../../chat';
import { ChatPage } from './ChatPage';
import { CompletingInput } from './CompletingInput';

const DEPARTMENTS = ['Engineering', 'Sales', 'Support'];

/** backend answers the composer's calls: one chat at a time, one prompt with arguments, and completions of departments. */
function backend() {
  const asked: string[] = [];
  const chatPage: Record<string, unknown> = {
    Chats: async () => [],
    Chat: async (id: string) => ({ id, title: 'A chat', provider: '', model: '', options: {} }),
    ChatMessagesPage: async () => ({ messages: [], hasMore: false }),
    PendingRequests: async () => [],
    ChatOptionsOf: async () => ({}),
    Prompts: async () => [{ server: 'everything', name: 'completable-prompt', title: '', description: 'Promote someone', icon: '',
      arguments: [{ name: 'department', description: '', required: true }, { name: 'name', description: '', required: true }] }],
    CompleteArgument: async (_server: string, _prompt: string, _template: string, _arg: string, value: string) => {
      asked.push(value);
      return DEPARTMENTS.filter((d) => d.startsWith(value));
    },
  };
  const any = (own: Record<string, unknown> = {}) => new Proxy(own, { get: (o, k) => o[k as string] ?? (async () => null) });
  window.go = { gui: { Window: any({ Info: async () => ({}) }), ChatPage: any(chatPage), SettingsPage: any(), ToolsPage: any({ Tools: async () => ({ tools: [] }) }), AgentsPage: any({ Agents: async () => [] }), Content: any() } } as unknown as typeof window.go;
  return asked;
}

const options = () => screen.queryAllByRole('option').map((o) => o.textContent);

function Department() {
  const [value, setValue] = useState('');
  return <CompletingInput completion={{ server: 'everything', prompt: 'completable-prompt' }} name="department" given={{}} value={value} onChange={setValue} aria-label="department" />;
}

afterEach(() => { vi.useRealTimers(); });

describe('the slash command form', { timeout: 30_000 }, () => {
  it('keeps its suggestions when the field loses focus and gets it back at once', async () => {
    vi.useFakeTimers();
    backend();
    render(<Department />);
    const input = screen.getByRole('combobox', { name: 'department' });
    await act(async () => { fireEvent.focus(input); });
    await act(async () => { fireEvent.change(input, { target: { value: 'S' } }); });
    expect(options()).toEqual(['Sales', 'Support']);
    // Focus goes and comes back within the close's delay: the list stays, and still follows typing.
    fireEvent.blur(input);
    fireEvent.focus(input);
    act(() => { vi.advanceTimersByTime(500); });
    expect(options()).toEqual(['Sales', 'Support']);
    await act(async () => { fireEvent.change(input, { target: { value: 'Su' } }); });
    expect(options()).toEqual(['Support']);
    // Gone for good: the list closes.
    fireEvent.blur(input);
    act(() => { vi.advanceTimersByTime(500); });
    expect(options()).toEqual([]);
  });

  it('keeps the cursor in the arguments form when the chat New chat made opens after it', async () => {
    backend();
    render(<ChatPage />);
    const box = await screen.findByRole('textbox', { name: 'Message' });
    fireEvent.change(box, { target: { value: '/completable' } });
    await screen.findByRole('option', { name: /completable-prompt/ });
    fireEvent.keyDown(box, { key: 'Enter' });
    const form = await screen.findByRole('form', { name: 'Arguments of completable-prompt' });
    const department = form.querySelector('input')!;
    department.focus();
    expect(document.activeElement).toBe(department);
    // The chat "New chat" was making opens now.
    await act(() => openChat('made-late'));
    expect(document.activeElement).toBe(department);
  });
});
