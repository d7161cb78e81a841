import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Shell, windowTitle } from './Shell';
import { commandFor, keysLabel } from './shortcuts';
import { PAGES, pageFromHash } from './pages';
import { store } from './store';

describe('Shell', () => {
  it('lists every page in the main navigation', () => {
    render(<Shell />);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const links = Array.from(nav.querySelectorAll('a')).map((a) => a.textContent);
    expect(links).toEqual(['Chat', 'Servers', 'Tools', 'Knowledge', 'Workspace', 'Agents', 'Settings', 'Skills', 'Connected apps']);
  });

  it('opens Chat by default and marks it current', () => {
    render(<Shell />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Chat');
    expect(screen.getByRole('link', { name: 'Chat' }).getAttribute('aria-current')).toBe('page');
  });

  it('clicking a link shows that page and moves aria-current', async () => {
    render(<Shell />);
    // Pages link to each other too (Settings names where related settings live): the main navigation's links.
    const nav = within(screen.getByRole('navigation', { name: 'Main' }));
    for (const p of PAGES) {
      await userEvent.click(nav.getByRole('link', { name: p.title }));
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(p.title);
      expect(nav.getByRole('link', { name: p.title }).getAttribute('aria-current')).toBe('page');
      expect(location.hash).toBe(`#/${p.id}`);
      const others = PAGES.filter((o) => o.id !== p.id);
      for (const o of others) expect(nav.getByRole('link', { name: o.title }).getAttribute('aria-current')).toBeNull();
    }
  }, 30_000); // renders every page: about a second alone, several on a busy CI machine

  it('names the window after the page, the open chat or the welcome page', () => {
    render(<Shell />);
    for (const p of PAGES.filter((p) => p.id !== 'chat')) {
      act(() => store.navigate(p.id));
      expect(document.title).toBe(`${p.title} — Switchboard`);
    }
    expect(windowTitle(false, 'chat', undefined)).toBe('Chat — Switchboard');
    expect(windowTitle(false, 'chat', { title: 'Trip to Lyon' })).toBe('Trip to Lyon — Switchboard');
    expect(windowTitle(false, 'chat', { title: '' })).toBe('Untitled chat — Switchboard');
    expect(windowTitle(true, 'servers', undefined)).toBe('Welcome — Switchboard');
  });

  it('follows hash changes (back/forward)', () => {
    render(<Shell />);
    act(() => {
      location.hash = '#/knowledge';
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Knowledge');
  });

  it('Ctrl+3 switches to Tools, Ctrl+0 and plain 1 do nothing', () => {
    render(<Shell />);
    fireEvent.keyDown(window, { key: '3', ctrlKey: true });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Tools');
    fireEvent.keyDown(window, { key: '0', ctrlKey: true });
    fireEvent.keyDown(window, { key: '1' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Tools');
  });

  it('links are reachable with Tab and activate with Enter', async () => {
    render(<Shell />);
    const user = userEvent.setup();
    await user.tab();
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Servers');
    await user.keyboard('{Enter}');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Servers');
  });

  it('opens the page named in the hash at start', () => {
    location.hash = '#/workspace';
    render(<Shell />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Workspace');
    expect(screen.getByRole('link', { name: 'Workspace' }).getAttribute('aria-current')).toBe('page');
  });

  it('gives every page a heading and a description', async () => {
    render(<Shell />);
    for (const p of PAGES) {
      act(() => store.navigate(p.id));
      const main = screen.getByRole('main');
      expect(main.querySelector('h1')?.textContent).toBe(p.title);
      expect(main.querySelector('p')?.textContent?.length ?? 0).toBeGreaterThan(30);
    }
  });

  // A screen reader hears where a shortcut or a link went: focus is on the
  // new page's heading, which stays out of the Tab order.
  it('moves focus to the page heading on a page switch', async () => {
    render(<Shell />);
    fireEvent.keyDown(window, { key: '2', ctrlKey: true });
    const h1 = screen.getByRole('heading', { level: 1 });
    expect(h1.textContent).toBe('Servers');
    expect(document.activeElement).toBe(h1);
    expect(h1.getAttribute('tabindex')).toBe('-1');
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Agents' }));
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Agents' }));
  });
});

describe('Shell in a narrow window', () => {
  const media = window.matchMedia;
  beforeEach(() => {
    window.matchMedia = ((query: string) => ({
      matches: true, media: query, addEventListener: () => undefined, removeEventListener: () => undefined,
    })) as unknown as typeof window.matchMedia;
  });
  afterEach(() => {
    window.matchMedia = media;
  });

  // At 720 px the chat list is what one comes to the drawer for on the Chat
  // page: it comes first, the page links after it (a compact row).
  it('puts the chat list first in the drawer on the Chat page only', () => {
    render(<Shell />);
    act(() => store.navigate('chat'));
    const drawer = document.getElementById('drawer')!;
    expect(drawer.className).toContain('drawer-chat');
    expect(drawer.firstElementChild?.id).toBe('drawer-slot');
    act(() => store.navigate('knowledge')); // a page that listens to no Go event (the runtime is not stubbed)
    expect(drawer.className).not.toContain('drawer-chat');
    expect(drawer.firstElementChild?.tagName).toBe('NAV');
  });
});

describe('version footer', () => {
  let readyCalls = 0;
  function bind(info: () => Promise<unknown>) {
    readyCalls = 0;
    const Ready = async () => {
      readyCalls++;
    };
    window.go = { gui: { Window: { Info: info, Ready } } };
  }

  it('shows the version the Go backend reports', async () => {
    bind(async () => ({ name: 'Switchboard', version: '1.2.3', dataDir: '/home/me/.config/switchboard' }));
    render(<Shell />);
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('v1.2.3'));
    expect(screen.getByText('v1.2.3').getAttribute('title')).toBe('Data: /home/me/.config/switchboard');
    expect(readyCalls).toBeGreaterThan(0); // the backend hears the first render
  });

  it('shows development builds without a "v"', async () => {
    bind(async () => ({ name: 'Switchboard', version: 'devel+abc123', dataDir: '/d' }));
    render(<Shell />);
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('devel+abc123'));
  });

  it('falls back to "dev" without Wails', async () => {
    render(<Shell />);
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('dev'));
  });

  it('says so when the backend fails', async () => {
    bind(() => Promise.reject(new Error('connection refused')));
    render(<Shell />);
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Backend unreachable'));
    expect(screen.getByText('Backend unreachable').getAttribute('title')).toBe('connection refused');
  });
});

describe('commandFor', () => {
  const none = { ctrlKey: false, metaKey: false, altKey: false, shiftKey: false };
  it.each([
    [{ ...none, ctrlKey: true, key: '3', code: 'Digit3' }, 'page:tools'],
    [{ ...none, metaKey: true, key: '6', code: 'Digit6' }, 'page:agents'],
    [{ ...none, metaKey: true, key: '7', code: 'Digit7' }, 'page:settings'],
    [{ ...none, ctrlKey: true, key: '1', code: 'Numpad1' }, 'page:chat'],
    [{ ...none, ctrlKey: true, key: '"', code: 'Digit3' }, 'page:tools'], // AZERTY: digit row without Shift
    [{ ...none, ctrlKey: true, key: '8', code: 'Digit8' }, 'page:skills'],
    [{ ...none, ctrlKey: true, key: '9', code: 'Digit9' }, 'page:apps'],
    [{ ...none, ctrlKey: true, key: 'n', code: 'KeyN' }, 'newChat'],
    [{ ...none, metaKey: true, key: 'N', code: 'KeyN' }, 'newChat'],
    [{ ...none, ctrlKey: true, key: 'i', code: 'KeyI' }, 'import'],
    [{ ...none, ctrlKey: true, key: ',', code: 'Comma' }, 'settings'],
    [{ ...none, ctrlKey: true, key: '/', code: 'Slash' }, 'shortcuts'],
    [{ ...none, ctrlKey: true, key: '0', code: 'Digit0' }, undefined],
    [{ ...none, key: '2', code: 'Digit2' }, undefined],
    [{ ...none, key: 'n', code: 'KeyN' }, undefined],
    [{ ...none, ctrlKey: true, shiftKey: true, key: '2', code: 'Digit2' }, undefined],
    [{ ...none, ctrlKey: true, altKey: true, key: '2', code: 'Digit2' }, undefined],
    [{ ...none, ctrlKey: true, key: 'k', code: 'KeyK' }, undefined],
  ])('%o → %s', (e, want) => {
    expect(commandFor(e)).toBe(want);
  });
});

describe('keysLabel', () => {
  it.each([
    ['CmdOrCtrl+N', false, 'Ctrl+N'],
    ['CmdOrCtrl+N', true, '⌘N'],
    ['CmdOrCtrl+,', true, '⌘,'],
    ['CmdOrCtrl+/', false, 'Ctrl+/'],
    ['Shift+Enter', false, 'Shift+Enter'],
    ['Shift+Enter', true, '⇧Return'],
    ['Esc', true, 'Esc'],
    ['', false, ''],
  ])('%s (mac %s) → %s', (keys, mac, want) => {
    expect(keysLabel(keys, mac)).toBe(want);
  });
});

describe('pageFromHash', () => {
  it.each([
    ['', 'chat'],
    ['#/servers', 'servers'],
    ['#servers', 'servers'],
    ['#/tools/everything__echo', 'tools'],
    ['#/nope', 'chat'],
  ])('%s → %s', (hash, want) => {
    expect(pageFromHash(hash)).toBe(want);
  });
});
