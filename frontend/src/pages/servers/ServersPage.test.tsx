import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { ServersPage } from './ServersPage';
import type { gui } from '../../backend';

// The Log in of a server that needs a login, against a stand-in of the Go
// side whose login waits for the browser until it is cancelled.
describe('ServersPage login', () => {
  const calls: string[] = [];
  afterEach(() => {
    window.go = undefined as unknown as typeof window.go;
    calls.length = 0;
  });
  function bind() {
    let fail: (e: Error) => void = () => undefined;
    const server = { name: 'linear', transport: 'http', state: 'needs-login', error: "linear: the server needs you to log in", seq: 1, stderrTail: [], restarts: 0, toolCount: 0 } as unknown as gui.ServerView;
    const any = (own: Record<string, unknown> = {}) => new Proxy(own, { get: (o, k) => o[k as string] ?? (async () => null) });
    window.go = {
      gui: new Proxy({
        Window: any({ Info: async () => ({}), ConfigError: async () => '' }),
        ServersPage: any({
          Servers: async () => [server],
          Profiles: async () => ({ active: '', names: [] }),
          ServerSecrets: async () => [],
          RefusedSecrets: async () => [],
          ServerLog: async () => [],
          LoginServer: (name: string) => {
            calls.push('login ' + name);
            return new Promise((_, reject) => { fail = reject; });
          },
          CancelLogin: async (name: string) => {
            calls.push('cancel ' + name);
            fail(new Error(`${name}: login cancelled`));
            return true;
          },
        }),
      }, { get: (o: Record<string, unknown>, k) => o[k as string] ?? any() }),
    } as unknown as typeof window.go;
    (window as unknown as { runtime: unknown }).runtime = { EventsOnMultiple: () => () => undefined };
  }

  it('Cancel ends a login that waits for the browser, without an error', async () => {
    bind();
    render(<ServersPage />);
    const row = await screen.findByRole('listitem', { name: 'linear' });
    fireEvent.click(within(row).getByRole('button', { name: 'Log in' }));
    expect(await within(row).findByRole('button', { name: 'Logging in…' })).toHaveProperty('disabled', true);
    fireEvent.click(within(row).getByRole('button', { name: 'Cancel the login to linear' }));
    await waitFor(() => expect(within(row).getByRole('button', { name: 'Log in' })).toHaveProperty('disabled', false));
    expect(calls).toEqual(['login linear', 'cancel linear']);
    expect(within(row).queryByRole('status', { name: 'Login to linear' })).toBeNull();
    expect(within(row).queryByRole('alert')).toBeNull();
  });
});

// At 720 px the "needs attention" line wraps: its icon stays with its title
// (one element that wraps inside), never alone on the first line.
describe('ServersPage attention summary', () => {
  afterEach(() => {
    window.go = undefined as unknown as typeof window.go;
  });

  it('keeps the icon inside the text that wraps', async () => {
    const server = { name: 'broken-one-with-a-really-long-server-name-that-should-truncate', transport: 'stdio', state: 'error', error: 'not found', seq: 1, stderrTail: [], restarts: 0, toolCount: 0 } as unknown as gui.ServerView;
    const any = (own: Record<string, unknown> = {}) => new Proxy(own, { get: (o, k) => o[k as string] ?? (async () => null) });
    window.go = {
      gui: new Proxy({
        Window: any({ Info: async () => ({}), ConfigError: async () => '' }),
        ServersPage: any({ Servers: async () => [server], Profiles: async () => ({ active: '', names: [] }), ServerSecrets: async () => [], RefusedSecrets: async () => [], ServerLog: async () => [] }),
      }, { get: (o: Record<string, unknown>, k) => o[k as string] ?? any() }),
    } as unknown as typeof window.go;
    (window as unknown as { runtime: unknown }).runtime = { EventsOnMultiple: () => () => undefined };
    render(<ServersPage />);
    const summary = await screen.findByText('1 server needs attention');
    const text = summary.parentElement!;
    expect(text.className).toBe('attention-text');
    expect(text.querySelector('svg')).not.toBeNull();
    expect(text.parentElement!.firstElementChild).toBe(text);
  });
});
