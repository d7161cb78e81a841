import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ServerProtocol, rootsWhy } from './ServerProtocol';
import type { gui } from '../../backend';

const server = (over: Partial<gui.ServerView>) => ({
  name: 'docs', transport: 'stdio', roots: ['/home/me/Documents'], rootsRule: 'configured', rootsMode: 'auto',
  configuredFolders: ['/home/me/Documents'], logging: false, logLevel: '', ...over,
}) as gui.ServerView;

describe('rootsWhy', () => {
  it.each([
    [{ rootsRule: 'configured', rootsMode: 'auto' }, /named in its arguments \(it was set up for them\)/],
    [{ rootsRule: 'workspace', rootsMode: 'auto' }, /workspace \(its arguments name no folder\)/],
    [{ rootsRule: 'workspace', rootsMode: 'workspace' }, /workspace \(chosen\)/],
    [{ rootsRule: 'both', rootsMode: 'both' }, /arguments and the workspace/],
    [{ rootsRule: 'none', rootsMode: 'none' }, /none/],
  ])('%j', (s, want) => {
    expect(rootsWhy({ configuredFolders: [], ...s })).toMatch(want);
  });
});

describe('ServerProtocol', () => {
  const calls: unknown[][] = [];
  afterEach(() => {
    window.go = undefined as unknown as typeof window.go;
    calls.length = 0;
  });
  function bind() {
    window.go = {
      gui: {
        ServersPage: {
          SetServerRoots: async (...a: unknown[]) => { calls.push(a); },
          Servers: async () => [],
        },
      },
    } as unknown as typeof window.go;
  }

  it('says which rule chose the roots and saves another choice', async () => {
    bind();
    render(<ServerProtocol server={server({})} />);
    expect(screen.getByRole('group', { name: 'Protocol of docs' }).textContent).toMatch(/set up for them/);
    fireEvent.change(screen.getByLabelText('Roots choice of docs'), { target: { value: 'workspace' } });
    await waitFor(() => expect(calls).toEqual([['docs', 'workspace', []]]));
    await screen.findByText(/Saved/);
  });

  it('saves a list of folders, one per line', async () => {
    bind();
    render(<ServerProtocol server={server({})} />);
    fireEvent.change(screen.getByLabelText('Roots choice of docs'), { target: { value: 'list' } });
    expect(calls).toEqual([]);
    fireEvent.change(screen.getByLabelText('Root folders of docs'), { target: { value: '/a\n\n/b' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save roots' }));
    await waitFor(() => expect(calls).toEqual([['docs', 'list', ['/a', '', '/b']]]));
  });

  it('offers no choice for a built-in server', () => {
    render(<ServerProtocol server={server({ transport: 'built-in' })} />);
    expect(screen.queryByLabelText('Roots choice of docs')).toBeNull();
  });
});

describe('ServerMetaLine', () => {
  it('names the MCP revision a ready server speaks, and none before', async () => {
    const { ServerMetaLine } = await import('./ServerMeta');
    const { rerender } = render(<ServerMetaLine server={server({ protocol: '2026-07-28', version: '1.2.0' })} />);
    expect(screen.getByText('MCP 2026-07-28')).toBeTruthy();
    rerender(<ServerMetaLine server={server({ protocol: '' })} />);
    expect(screen.queryByText(/^MCP /)).toBeNull();
  });
});
