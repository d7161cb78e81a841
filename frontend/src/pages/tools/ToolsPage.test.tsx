import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { filterTools, ToolsPage } from './ToolsPage';
import type { gui } from '../../backend';

const tool = (server: string, name: string, description: string): gui.ToolView => ({
  name: `${server}__${name}`, server, tool: name, title: '', description, inputSchema: '{"type":"object"}',
  readOnly: true, destructive: false, defaultPolicy: 'allow', icon: '', warnings: [], outputSchema: '',
});

const tools = [
  tool('everything', 'echo', 'Echoes back the input string'),
  tool('everything', 'get-sum', 'Returns the sum of two numbers'),
  tool('everything', 'get-env', 'Returns all environment variables'),
  tool('fs', 'read_text_file', 'Read the complete contents of a file'),
  tool('memory', 'read_graph', 'Read the entire knowledge graph'),
];

// A stand-in of the Go side: the Tools page's list, with errors.
function bind(errors: gui.ServerErrorView[]) {
  const any = (own: Record<string, unknown> = {}) => new Proxy(own, { get: (o, k) => o[k as string] ?? (async () => null) });
  window.go = {
    gui: new Proxy({
      Window: any({ Info: async () => ({}) }),
      ToolsPage: any({ Tools: async () => ({ tools, errors }) }),
      SettingsPage: any({ ChatSettings: async () => ({ policies: {} }) }),
      Safety: any({ Rules: async () => [], Safety: async () => ({ changes: [], warnings: [], new: {} }) }),
    }, { get: (o: Record<string, unknown>, k) => o[k as string] ?? any() }),
  } as unknown as typeof window.go;
  (window as unknown as { runtime: unknown }).runtime = { EventsOnMultiple: () => () => undefined };
}

describe('ToolsPage', () => {
  afterEach(() => {
    window.go = undefined as unknown as typeof window.go;
  });

  // A tool withheld for review is one tool left out of a running server,
  // not an unavailable server to Edit.
  it('says a withheld tool waits for review, not that its server is unavailable', async () => {
    bind([
      { server: 'rug', tool: 'rug__weather', error: "rug: weather: the tool's definition changed since you trusted it; it is withheld until you review it: run 'switchboard tools trust weather --server rug' or open Servers → rug in the window and Accept or Reject it" },
      { server: 'broken', error: 'broken: exited: code 1' },
    ]);
    render(<ToolsPage />);
    expect(await screen.findByText('1 tool left out')).toBeTruthy();
    const left = screen.getByText('1 tool left out').closest('[role="status"]') as HTMLElement;
    expect(within(left).getByText('rug__weather')).toBeTruthy();
    expect(left.textContent).toContain("the tool's definition changed since you trusted it");
    expect(within(left).getByRole('link', { name: 'see Servers' }).getAttribute('href')).toBe('#/servers');
    const down = screen.getByText('1 server unavailable').closest('[role="status"]') as HTMLElement;
    expect(down.textContent).toContain('broken');
    expect(down.textContent).not.toContain('rug');
  });

  it('searches the tools of every server', async () => {
    bind([]);
    render(<ToolsPage />);
    await screen.findByRole('button', { name: 'echo' });
    fireEvent.change(screen.getByLabelText("Search every server's tools"), { target: { value: 'read' } });
    const list = screen.getByRole('list', { name: 'Tools that match' });
    expect(within(list).getAllByRole('button').map((b) => b.textContent)).toEqual(['fs__read_text_file', 'memory__read_graph']);
    fireEvent.click(within(list).getByRole('button', { name: 'memory__read_graph' }));
    expect(await screen.findByText('Read the entire knowledge graph', { selector: '.tool-desc' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Search every server's tools"), { target: { value: '' } });
    expect((screen.getByLabelText('Server') as HTMLSelectElement).value).toBe('memory');
  });

  // The list is one Tab stop; the arrows move inside it.
  it('moves through the tools with the arrow keys, one Tab stop for the list', async () => {
    bind([]);
    render(<ToolsPage />);
    const list = await screen.findByRole('list', { name: 'Tools of the server' });
    const buttons = within(list).getAllByRole('button');
    expect(buttons.map((b) => b.tabIndex)).toEqual([0, -1, -1]);
    buttons[0]?.focus();
    fireEvent.keyDown(buttons[0] as HTMLElement, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(buttons[1]);
    fireEvent.keyDown(buttons[1] as HTMLElement, { key: 'End' });
    expect(document.activeElement).toBe(buttons[2]);
    fireEvent.keyDown(buttons[2] as HTMLElement, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(buttons[2]);
    fireEvent.click(buttons[2] as HTMLElement);
    expect(within(list).getAllByRole('button').map((b) => b.tabIndex)).toEqual([-1, -1, 0]);
  });

  it.each([
    ['read', ['fs__read_text_file', 'memory__read_graph']],
    ['SUM numbers', ['everything__get-sum']],
    ['everything get', ['everything__get-sum', 'everything__get-env']],
    ['nothing like it', []],
  ])('filterTools(%j)', (q, want) => {
    expect(filterTools(tools, q).map((t) => t.name)).toEqual(want);
  });
});
