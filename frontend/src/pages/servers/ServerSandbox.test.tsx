import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { SandboxBadge, ServerSandboxForm, lines } from './ServerSandbox';
import type { gui } from '../../backend';

describe('lines', () => {
  it.each([
    ['', []],
    ['/a', ['/a']],
    [' /a \n\n~/b\n', ['/a', '~/b']],
  ])('%j is %j', (text, want) => {
    expect(lines(text)).toEqual(want);
  });
});

describe('SandboxBadge', () => {
  it('marks a sandboxed server only', () => {
    const { rerender } = render(<SandboxBadge server={{ name: 'a', sandboxed: true } as gui.ServerView} />);
    expect(screen.getByText('sandboxed').getAttribute('title')).toMatch(/home folder, keys and the network/);
    rerender(<SandboxBadge server={{ name: 'a', sandboxed: false } as gui.ServerView} />);
    expect(screen.queryByText('sandboxed')).toBeNull();
  });
});

describe('ServerSandboxForm', () => {
  afterEach(() => {
    window.go = undefined as unknown as typeof window.go;
  });

  it('says only a sandbox keeps a server from the keyring', async () => {
    window.go = {
      gui: {
        Window: { Info: async () => ({}) },
        Sandbox: { ServerSandbox: async () => ({ local: true, enabled: false, network: false, allowRead: [], allowWrite: [], roots: 'read' }) },
      },
    } as unknown as typeof window.go;
    render(<ServerSandboxForm server={{ name: 'a' } as gui.ServerView} />);
    expect((await screen.findByText(/not your home folder/)).textContent).toMatch(/or the keyring\. Without a sandbox a server can read every Switchboard secret in the keyring\./);
  });
});
