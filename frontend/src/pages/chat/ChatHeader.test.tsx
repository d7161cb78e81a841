import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ChatHeader, modelWidth } from './ChatHeader';
import { chatState, loadChats } from '../../chat';
import { loadAgents } from '../../agents';
import type { host } from '../../backend';

/** bind stands in for the Go side a chat's header reads: one chat (its agent and provider) and the agents there are. */
function bind(chat: Partial<host.ChatView>, agents: host.Agent[]) {
  const c = { id: 'c1', title: 'Look at the diff', provider: 'Fake', model: 'm', agent: '', createdAt: '', updatedAt: '', ...chat };
  window.go = {
    gui: {
      Window: { Info: async () => ({ name: 'Switchboard', version: 'dev', dataDir: '' }) },
      AgentsPage: { Agents: async () => agents },
      ChatPage: {
        Chats: async () => [c], PendingRequests: async () => [], Chat: async () => c, SetChatModel: async () => {},
        ChatOptionsOf: async () => ({ offServers: [], offTools: [], toolMode: '' }),
        ToolModeStatus: async () => ({ mode: 'direct', by: 'model', default: 'direct', window: 0, codeWindow: 32768 }),
        ToolSearchStatus: async () => ({ on: false, by: 'size', reason: '' }),
      },
      SettingsPage: { ChatSettings: async () => ({ providers: [{ name: 'Fake', defaultModel: 'm' }], defaultProvider: 'Fake' }), ProviderModels: async () => [] },
      ToolsPage: { Tools: async () => ({ tools: [] }) },
    },
  } as unknown as typeof window.go;
  (window as unknown as { runtime: unknown }).runtime = { EventsOnMultiple: () => () => {} };
}

describe('ChatHeader', () => {
  afterEach(() => {
    cleanup();
    window.go = undefined as unknown as typeof window.go;
    (window as unknown as { runtime: unknown }).runtime = undefined;
  });

  it('says when the chat\'s agent was deleted, and that it runs with the default set-up', async () => {
    bind({ agent: 'gone1' }, []);
    await loadChats();
    await loadAgents();
    render(<ChatHeader chatId="c1" />);
    const note = await screen.findByRole('note', { name: 'Agent deleted' });
    expect(note.textContent).toContain('goes on with the default set-up — every server');
  });

  it('names the agent\'s servers that are not set up', async () => {
    bind({ agent: 'd1' }, [{ id: 'd1', name: 'Deleg', servers: ['alpha', 'beta'], missing: ['beta'], delegate: true }]);
    await loadChats();
    await loadAgents();
    render(<ChatHeader chatId="c1" />);
    const note = await screen.findByRole('note', { name: 'Agent servers not set up' });
    expect(note.textContent).toContain("Deleg's server beta is not set up: this chat runs without it.");
    expect(screen.queryByRole('note', { name: 'Agent deleted' })).toBeNull();
    expect(screen.getByLabelText('Agent Deleg').getAttribute('title')).toContain('Deleg');
  });

  it('shows a long model name whole: its tooltip, and a field that grows with it', async () => {
    const long = 'fake-model-with-a-very-long-name-2025-preview-instruct-q4';
    bind({ model: long }, []);
    await loadChats();
    render(<ChatHeader chatId="c1" />);
    const field = await screen.findByRole('combobox', { name: 'Model' }) as HTMLInputElement;
    await waitFor(() => expect(field.value).toBe(long));
    expect(field.title).toBe(long);
  });

  it('measures the context again for the model picked (another window)', async () => {
    bind({ model: 'm' }, []);
    let model = 'm';
    const go = window.go as unknown as { gui: { ChatPage: Record<string, unknown> } };
    go.gui.ChatPage.SetChatModel = async (_: string, __: string, m: string) => { model = m; };
    go.gui.ChatPage.ChatContext = async () => ({ used: 1200, window: model === 'm' ? 8000 : 3000, limit: 0, system: 0, tools: 0, history: 1200, results: 0 });
    await loadChats();
    render(<ChatHeader chatId="c1" />);
    await screen.findByRole('button', { name: /^15% — context 1\.2k of 8\.0k tokens/ });
    const field = await screen.findByRole('combobox', { name: 'Model' }) as HTMLInputElement;
    await waitFor(() => expect(field.value).toBe('m'));
    fireEvent.change(field, { target: { value: 'small-model' } });
    fireEvent.blur(field);
    await screen.findByRole('button', { name: /^40% — context 1\.2k of 3\.0k tokens/ });
  });

  it('tells the chat list the model picked, so New chat goes on with it', async () => {
    bind({ model: 'm' }, []);
    await loadChats();
    render(<ChatHeader chatId="c1" />);
    const field = await screen.findByRole('combobox', { name: 'Model' }) as HTMLInputElement;
    await waitFor(() => expect(field.value).toBe('m'));
    fireEvent.change(field, { target: { value: 'picked-model' } });
    fireEvent.blur(field);
    await waitFor(() => expect(chatState().chats.find((c) => c.id === 'c1')?.model).toBe('picked-model'));
  });

  it.each([
    { name: 'a short name keeps the usual width', model: 'gpt-4o', room: 1200, want: 'clamp(150px, 9ch, 400px)' },
    { name: 'a long one grows, up to a third of the header', model: 'x'.repeat(57), room: 1200, want: 'clamp(150px, 60ch, 400px)' },
    { name: 'a narrow header still gives the usual width', model: 'x'.repeat(57), room: 300, want: 'clamp(150px, 60ch, 150px)' },
    { name: 'in the ⋯ menu the style sheet decides', model: 'x'.repeat(57), room: 0, want: '' },
    { name: 'no width known yet', model: 'm', room: Number.POSITIVE_INFINITY, want: '' },
  ])('sizes the model field: $name', ({ model, room, want }) => {
    expect(modelWidth(model, room)).toBe(want);
  });

  it('shows a provider that is gone as such, not as the first one set up', async () => {
    bind({ provider: 'Removed', model: 'gone' }, []);
    await loadChats();
    render(<ChatHeader chatId="c1" />);
    const select = await screen.findByLabelText('Provider') as HTMLSelectElement;
    await waitFor(() => expect(select.selectedOptions[0]?.textContent).toBe('Removed (not set up)'));
  });
});
