import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AppsPage } from './AppsPage';
import type { host } from '../../backend';

const cursor: host.ClientApp = {
  name: 'cursor', title: 'Cursor', found: true, connected: true, ownServers: 0, running: false,
  files: [{ path: '/home/me/.cursor/mcp.json', scope: 'user', servers: 0, connected: true }],
  servers: [], moved: ['github'], calls: 0,
} as host.ClientApp;

/** bind stands in for the Go side of Connected apps, recording what it was asked. */
function bind() {
  const calls: { method: string; args: unknown[] }[] = [];
  const change = (withSecrets: unknown): host.ClientChange => ({
    name: 'cursor', title: 'Cursor', path: '/home/me/.cursor/mcp.json', scope: 'user', changed: true,
    diff: withSecrets ? '+   "github": {"env": {"GITHUB_TOKEN": "ghp_x"}}' : '+   "github": {"env": {"GITHUB_TOKEN": ""}}',
    moved: ['github'], skipped: [], warnings: [],
  } as host.ClientChange);
  window.go = {
    gui: {
      Window: { Info: async () => ({ name: 'Switchboard', version: 'dev', dataDir: '' }) },
      ClientsPage: {
        ClientApps: async () => ({ apps: [cursor], servers: ['github'], builtins: ['workspace'], sharing: false }),
        PreviewDisconnect: async (...args: unknown[]) => { calls.push({ method: 'PreviewDisconnect', args }); return change(args[1]); },
        DisconnectClient: async (...args: unknown[]) => { calls.push({ method: 'DisconnectClient', args }); return change(args[1]); },
      },
    },
  } as unknown as typeof window.go;
  return calls;
}

describe('AppsPage', () => {
  afterEach(() => {
    cleanup();
    window.go = undefined as unknown as typeof window.go;
  });

  it('gives the moved servers back with their secrets unless told not to', async () => {
    const calls = bind();
    render(<AppsPage />);
    const row = await screen.findByRole('listitem', { name: 'Cursor' });
    fireEvent.click(within(row).getByRole('button', { name: 'Disconnect…' }));
    const preview = await within(row).findByRole('region', { name: 'Disconnect Cursor: preview' });
    expect(calls[0]).toEqual({ method: 'PreviewDisconnect', args: ['cursor', true] });
    const box = within(preview).getByRole('checkbox', { name: /secrets back from the keyring/ }) as HTMLInputElement;
    expect(box.checked).toBe(true);
    expect(within(preview).getByText('Returned to the file: github', { exact: false })).toBeTruthy();
    fireEvent.click(box);
    await waitFor(() => expect(calls.at(-1)).toEqual({ method: 'PreviewDisconnect', args: ['cursor', false] }));
    fireEvent.click(await within(row).findByRole('checkbox', { name: /secrets back from the keyring/ }));
    await waitFor(() => expect(calls.at(-1)).toEqual({ method: 'PreviewDisconnect', args: ['cursor', true] }));
    fireEvent.click(within(row).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(calls.at(-1)).toEqual({ method: 'DisconnectClient', args: ['cursor', true] }));
  });
});
