import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { RefusedSecretsLine, RemoveConfirm } from './RemoveConfirm';

// The remove confirmation and the Grant line against a stand-in of the Go
// side: what they send.
describe('RemoveConfirm', () => {
  const calls: unknown[][] = [];
  function bind(secrets: string[], refused: string[] = []) {
    window.go = {
      gui: {
        ServersPage: {
          Servers: async () => [],
          ServerSecrets: async () => secrets,
          RemoveServer: async (name: string, forget: boolean) => { calls.push(['remove', name, forget]); },
          RefusedSecrets: async () => refused,
          GrantSecret: async (secret: string, server: string) => { calls.push(['grant', secret, server]); },
        },
      },
    } as unknown as typeof window.go;
    (window as unknown as { runtime: unknown }).runtime = { EventsOnMultiple: () => () => undefined };
  }
  afterEach(() => {
    window.go = undefined as unknown as typeof window.go;
    calls.length = 0;
  });

  it('starts on Cancel, cancels on Escape, and a double-click does not remove', async () => {
    bind([]);
    let cancelled = 0;
    render(<RemoveConfirm name="gh" onCancel={() => { cancelled++; }} onError={() => undefined} />);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }), { detail: 2 });
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(cancelled).toBe(1);
    expect(calls).toEqual([]);
  });

  it('deletes the server\'s secrets by default', async () => {
    bind(['server.0123456789ab.env.TOKEN']);
    render(<RemoveConfirm name="gh" onCancel={() => undefined} onError={() => undefined} />);
    const box = await screen.findByLabelText(/Also delete its secret from the keyring/) as HTMLInputElement;
    expect(box.checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(calls).toEqual([['remove', 'gh', true]]));
  });

  it('keeps them when the box is unticked', async () => {
    bind(['a', 'b']);
    render(<RemoveConfirm name="gh" onCancel={() => undefined} onError={() => undefined} />);
    fireEvent.click(await screen.findByLabelText(/Also delete its 2 secrets/));
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(calls).toEqual([['remove', 'gh', false]]));
  });

  it('names the agents the server is taken out of', async () => {
    bind([]);
    const go = window.go as unknown as { gui: Record<string, unknown> };
    go.gui.Window = { Info: async () => ({ name: 'Switchboard', version: 'dev', dataDir: '' }) };
    go.gui.AgentsPage = { Agents: async () => [{ id: 'd1', name: 'Deleg', servers: ['alpha', 'gh'] }, { id: 'r1', name: 'Researcher', servers: ['alpha'] }] };
    render(<RemoveConfirm name="gh" onCancel={() => undefined} onError={() => undefined} />);
    expect((await screen.findByRole('note')).textContent).toBe('It is taken out of the agent Deleg too.');
  });

  it('offers no box for a server without secrets', async () => {
    bind([]);
    render(<RemoveConfirm name="gh" onCancel={() => undefined} onError={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(calls).toEqual([['remove', 'gh', false]]));
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('grants a refused secret to the server', async () => {
    bind([], ['victim_GITHUB_TOKEN']);
    render(<RefusedSecretsLine name="evil" error="${secret:victim_GITHUB_TOKEN} is not this server's own secret" />);
    // Before the grant: a grant is not a wall, only a sandbox keeps a server from the keyring.
    expect(await screen.findByText(/Only a sandboxed server is kept from the keyring/)).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Grant victim_GITHUB_TOKEN to evil' }));
    await waitFor(() => expect(calls).toEqual([['grant', 'victim_GITHUB_TOKEN', 'evil']]));
  });
});
