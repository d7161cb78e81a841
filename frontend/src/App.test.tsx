import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { App } from './App';
import { PAGES, pageFromHash } from './pages';
import { store } from './store';

describe('App shell', () => {
  it('lists every page in the main navigation', () => {
    render(<App />);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const links = Array.from(nav.querySelectorAll('a')).map((a) => a.textContent);
    expect(links).toEqual(['Chat', 'Servers', 'Tools', 'Knowledge', 'Workspace', 'Settings']);
  });

  it('opens Chat by default and marks it current', () => {
    render(<App />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Chat');
    expect(screen.getByRole('link', { name: 'Chat' }).getAttribute('aria-current')).toBe('page');
  });

  it('clicking a link shows that page and moves aria-current', async () => {
    render(<App />);
    for (const p of PAGES) {
      await userEvent.click(screen.getByRole('link', { name: p.title }));
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(p.title);
      expect(screen.getByRole('link', { name: p.title }).getAttribute('aria-current')).toBe('page');
      expect(location.hash).toBe(`#/${p.id}`);
      const others = PAGES.filter((o) => o.id !== p.id);
      for (const o of others) expect(screen.getByRole('link', { name: o.title }).getAttribute('aria-current')).toBeNull();
    }
  });

  it('follows hash changes (back/forward)', () => {
    render(<App />);
    act(() => {
      location.hash = '#/knowledge';
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Knowledge');
  });

  it('Ctrl+3 switches to Tools, Ctrl+9 and plain 3 do nothing', () => {
    render(<App />);
    fireEvent.keyDown(window, { key: '3', ctrlKey: true });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Tools');
    fireEvent.keyDown(window, { key: '9', ctrlKey: true });
    fireEvent.keyDown(window, { key: '1' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Tools');
  });

  it('links are reachable with Tab and activate with Enter', async () => {
    render(<App />);
    const user = userEvent.setup();
    await user.tab();
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Servers');
    await user.keyboard('{Enter}');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Servers');
  });

  it('shows the version from the backend in the footer', () => {
    render(<App />);
    act(() => store.setInfo({ name: 'Switchboard', version: '9.9.9', dataDir: '/d' }));
    expect(screen.getByRole('status').textContent).toBe('v9.9.9');
    act(() => store.setBackendError('boom'));
    expect(screen.getByRole('status').textContent).toBe('Backend unreachable');
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
