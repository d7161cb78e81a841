import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ServerOAuthForm, parsePort, scopeList } from './ServerOAuth';
import type { gui } from '../../backend';

describe('parsePort', () => {
  it.each([
    ['', 0, ''],
    [' 8765 ', 8765, ''],
    ['0', 0, 'whole number from 1 to 65535'],
    ['70000', 0, 'whole number from 1 to 65535'],
    ['80.5', 0, 'whole number from 1 to 65535'],
    ['abc', 0, 'whole number from 1 to 65535'],
  ])('%j', (text, port, error) => {
    const got = parsePort(text);
    expect(got.port).toBe(port);
    if (error) expect(got.error).toContain(error);
    else expect(got.error).toBe('');
  });
});

describe('scopeList', () => {
  it.each([
    ['', []],
    ['read write', ['read', 'write']],
    [' read,  write ,mcp:admin ', ['read', 'write', 'mcp:admin']],
  ])('%j', (text, want) => {
    expect(scopeList(text)).toEqual(want);
  });
});

describe('ServerOAuthForm', () => {
  const saved: unknown[][] = [];
  afterEach(() => {
    window.go = undefined as unknown as typeof window.go;
    saved.length = 0;
  });
  function bind(view: Partial<gui.OAuthView>, fail = '') {
    window.go = {
      gui: {
        Window: { Info: async () => ({}), ConfigError: async () => '' },
        ServersPage: {
          ServerOAuth: async () => ({ clientId: '', clientSecret: '', hasSecret: false, removeSecret: false, redirectPort: 0, scopes: [], remote: true, ...view }),
          SetServerOAuth: async (...a: unknown[]) => {
            if (fail) throw new Error(fail);
            saved.push(a);
          },
          Servers: async () => [],
        },
      },
    } as unknown as typeof window.go;
    (window as unknown as { runtime: unknown }).runtime = { EventsOnMultiple: () => () => undefined };
  }
  const server = { name: 'linear', transport: 'http' } as gui.ServerView;

  it('saves the client with its new secret, port and scopes', async () => {
    bind({});
    let onSaved = 0;
    render(<ServerOAuthForm server={server} onSaved={() => { onSaved++; }} />);
    const form = await screen.findByRole('form', { name: 'OAuth client of linear' });
    fireEvent.change(screen.getByLabelText('Client ID'), { target: { value: ' my-client ' } });
    fireEvent.change(screen.getByLabelText(/Client secret/), { target: { value: 's3cret' } });
    fireEvent.change(screen.getByLabelText('Redirect port'), { target: { value: '8765' } });
    fireEvent.change(screen.getByLabelText(/Scopes/), { target: { value: 'read write' } });
    fireEvent.submit(form);
    await screen.findByRole('status');
    expect(onSaved).toBe(1);
    expect(saved).toEqual([['linear', expect.objectContaining({ clientId: 'my-client', clientSecret: 's3cret', redirectPort: 8765, scopes: ['read', 'write'], removeSecret: false })]]);
    // The secret leaves the window: the field is empty, the label says it is stored.
    expect((screen.getByLabelText(/Client secret/) as HTMLInputElement).value).toBe('');
    expect(screen.getByLabelText(/Client secret/).closest('label')?.textContent).toMatch(/stored in the keyring/);
  });

  it('keeps a stored secret unless told to remove it', async () => {
    bind({ clientId: 'id', hasSecret: true, redirectPort: 9000, scopes: ['a'] });
    render(<ServerOAuthForm server={server} />);
    expect(((await screen.findByLabelText('Client ID')) as HTMLInputElement).value).toBe('id');
    expect((screen.getByLabelText('Redirect port') as HTMLInputElement).value).toBe('9000');
    fireEvent.click(screen.getByLabelText(/Remove the stored secret/));
    expect((screen.getByLabelText(/Client secret/) as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Save OAuth client' }));
    await waitFor(() => expect(saved).toEqual([['linear', expect.objectContaining({ clientSecret: '', removeSecret: true, scopes: ['a'] })]]));
  });

  it('refuses a port that is no port before saving, and shows the Go side\'s problem', async () => {
    bind({}, 'linear.oauth.clientSecret: needs "clientId"');
    render(<ServerOAuthForm server={server} />);
    fireEvent.change(await screen.findByLabelText('Redirect port'), { target: { value: '99999' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save OAuth client' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/1 to 65535/);
    expect(saved).toEqual([]);
    fireEvent.change(screen.getByLabelText('Redirect port'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText(/Client secret/), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save OAuth client' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/oauth\.clientSecret: needs "clientId"/));
  });

  it('shows nothing for a local server', async () => {
    bind({ remote: false });
    const { container } = render(<ServerOAuthForm server={{ name: 'fs', transport: 'stdio' } as gui.ServerView} />);
    await waitFor(() => expect(container.textContent).toBe(''));
  });
});
