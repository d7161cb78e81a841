import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FILTER_FROM, matching, ToolPicker } from './ToolPicker';
import { chatState, setMeter } from '../../chat';

/** bind stands in for the Go side the Tools popover reads: n tools of the everything server and one of memory. */
function bind(n: number) {
  const tools = [
    ...Array.from({ length: n }, (_, i) => ({ name: `everything__tool${i}`, server: 'everything', tool: `tool${i}` })),
    { name: 'memory__read_graph', server: 'memory', tool: 'read_graph' },
  ];
  window.go = {
    gui: {
      ChatPage: {
        ChatOptionsOf: async () => ({ offServers: [], offTools: [], toolMode: '' }),
        SetChatOptions: async () => {},
        ToolModeStatus: async () => ({ mode: 'direct', by: 'model', default: 'direct', window: 0, codeWindow: 32768 }),
        ToolSearchStatus: async () => ({ on: false, by: 'size', reason: '' }),
      },
      ToolsPage: { Tools: async () => ({ tools }) },
    },
  } as unknown as typeof window.go;
}

// Enter on "Tools: N" puts the keyboard in the popover, not on the button;
// with many tools the first thing there is a filter, as in LM Studio.
describe('ToolPicker', { timeout: 30_000 }, () => {
  afterEach(() => {
    cleanup();
    window.go = undefined as unknown as typeof window.go;
  });

  it('moves focus to its first control on open, and back to the button on Escape', async () => {
    bind(3);
    render(<ToolPicker chatId="c1" onError={() => undefined} settings={null} />);
    const button = await screen.findByRole('button', { name: /Tools: 4/ });
    button.focus();
    await userEvent.keyboard('{Enter}');
    const pop = screen.getByRole('dialog', { name: 'Tools for this chat' });
    expect(pop.contains(document.activeElement)).toBe(true);
    expect(within(pop).queryByRole('searchbox')).toBeNull();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('has the context meter measured again when a tool is switched off (its definition goes)', async () => {
    bind(3);
    setMeter('c1', { used: 2000, window: 8000, limit: 6400, system: 0, tools: 1500, history: 500, results: 0 });
    render(<ToolPicker chatId="c1" onError={() => undefined} settings={null} />);
    fireEvent.click(await screen.findByRole('button', { name: /Tools: 4/ }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Tools for this chat' })).getByRole('checkbox', { name: 'tool0' }));
    await waitFor(() => expect(chatState().meters.c1).toBeUndefined());
  });

  it('starts with a filter field when there are many tools, and filters by tool or server', async () => {
    bind(50);
    render(<ToolPicker chatId="c1" onError={() => undefined} settings={null} />);
    fireEvent.click(await screen.findByRole('button', { name: /Tools: 51/ }));
    const pop = screen.getByRole('dialog', { name: 'Tools for this chat' });
    const filter = within(pop).getByRole('searchbox', { name: 'Filter tools' });
    await waitFor(() => expect(document.activeElement).toBe(filter));
    fireEvent.change(filter, { target: { value: 'TOOL4' } });
    // tool4 and tool40…tool49
    expect(within(pop).getAllByRole('checkbox', { name: /^tool4/ })).toHaveLength(11);
    expect(within(pop).queryByRole('checkbox', { name: /read_graph/ })).toBeNull();
    expect(within(pop).getByRole('status').textContent).toBe('11 tools shown');
    fireEvent.change(filter, { target: { value: 'memory' } });
    expect(within(pop).getByRole('checkbox', { name: 'read_graph' })).toBeTruthy();
  });

  it('matches servers whole and tools one by one', () => {
    const t = (server: string, tool: string) => ({ name: `${server}__${tool}`, server, tool });
    const groups: [string, ReturnType<typeof t>[]][] = [['github', [t('github', 'create_issue'), t('github', 'search')]], ['memory', [t('memory', 'search_nodes')]]];
    expect(matching(groups, '')).toBe(groups);
    expect(matching(groups, 'GIT')).toEqual([groups[0]]);
    expect(matching(groups, 'search')).toEqual([['github', [t('github', 'search')]], ['memory', [t('memory', 'search_nodes')]]]);
    expect(matching(groups, 'nothing')).toEqual([]);
    expect(FILTER_FROM).toBeLessThanOrEqual(16);
  });
});
