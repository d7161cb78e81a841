import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppsPage } from './AppsPage';
import type { host } from '../../backend';

const claude: host.ClientApp = {
  name: 'claude', title: 'Claude Desktop', found: true, connected: false, ownServers: 0, running: false,
  files: [{ path: '/home/me/.config/Claude/claude_desktop_config.json', scope: 'user', servers: 0, connected: false }],
  servers: [], moved: [], calls: 0,
} as host.ClientApp;

function bind() {
  const change = {
    name: 'claude', title: 'Claude Desktop', path: '/home/me/.config/Claude/claude_desktop_config.json', scope: 'user', changed: true,
    diff: '+   "switchboard": {"command": "switchboard", "args": ["serve"]}', moved: [], skipped: [], warnings: [],
  };
  window.go = {
    gui: {
      Window: { Info: async () => ({ name: 'Switchboard', version: 'dev', dataDir: '' }) },
      ClientsPage: {
        ClientApps: async () => ({ apps: [claude], servers: [], builtins: ['workspace'], sharing: false }),
        PreviewConnect: async () => ({ change, envDiffers: [] }),
      },
    },
  } as unknown as typeof window.go;
}

// The keyboard's way through Connect…: the preview takes focus, Escape
// (or Cancel) closes it, and focus is back on Connect…, as with every
// other panel of the window.
describe('AppsPage preview focus', { timeout: 30_000 }, () => {
  afterEach(() => {
    cleanup();
    window.go = undefined as unknown as typeof window.go;
  });

  it('moves focus to the preview, cancels on Escape and returns focus to Connect…', async () => {
    bind();
    render(<AppsPage />);
    const row = await screen.findByRole('listitem', { name: 'Claude Desktop' });
    within(row).getByRole('button', { name: 'Connect…' }).focus();
    await userEvent.keyboard('{Enter}');
    const preview = await within(row).findByRole('region', { name: 'Connect Claude Desktop: preview' });
    await waitFor(() => expect(document.activeElement).toBe(preview));
    await userEvent.keyboard('{Escape}');
    expect(within(row).queryByRole('region')).toBeNull();
    expect(document.activeElement).toBe(within(row).getByRole('button', { name: 'Connect…' }));
  });

  it('returns focus to Connect… after Cancel', async () => {
    bind();
    render(<AppsPage />);
    const row = await screen.findByRole('listitem', { name: 'Claude Desktop' });
    fireEvent.click(within(row).getByRole('button', { name: 'Connect…' }));
    const preview = await within(row).findByRole('region', { name: 'Connect Claude Desktop: preview' });
    await userEvent.click(within(preview).getByRole('button', { name: 'Cancel' }));
    expect(document.activeElement).toBe(within(row).getByRole('button', { name: 'Connect…' }));
  });
});
