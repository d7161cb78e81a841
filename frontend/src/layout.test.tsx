import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useRef, useState } from 'react';
import { useDismiss } from './dismiss';
import { useDrawer } from './drawer';
import { GAP, placePopover } from './layout';

const view = { width: 720, height: 600 };
const button = (left: number, top: number) => ({ left, top, width: 80, height: 30 });

describe('placePopover', () => {
  it.each([
    // name, anchor, popover size, expected left/top/above
    ['below, right edges aligned', button(500, 40), { width: 360, height: 200 }, { left: 220, top: 78, above: false }],
    ['moved right when it would leave on the left', button(20, 40), { width: 360, height: 200 }, { left: GAP, top: 78, above: false }],
    ['moved left when the button is near the right edge', button(700, 40), { width: 360, height: 200 }, { left: 720 - GAP - 360, top: 78, above: false }],
    ['flipped above a button near the bottom', button(300, 520), { width: 360, height: 300 }, { left: 20, top: 520 - GAP - 300, above: true }],
    ['kept below when there is more room there', button(300, 200), { width: 360, height: 500 }, { left: 20, top: 238, above: false }],
  ])('%s', (_, anchor, size, want) => {
    const at = placePopover(anchor, size, view);
    expect({ left: at.left, top: at.top, above: at.above }).toEqual(want);
  });

  it('never leaves the window: wider or taller than the room gets the room as its limits', () => {
    for (const [x, y] of [[0, 0], [640, 0], [0, 570], [640, 570], [320, 285]] as const) {
      const at = placePopover(button(x, y), { width: 2000, height: 2000 }, view);
      expect(at.maxWidth).toBe(view.width - 2 * GAP);
      expect(at.left).toBeGreaterThanOrEqual(GAP);
      expect(at.left + Math.min(2000, at.maxWidth)).toBeLessThanOrEqual(view.width - GAP);
      expect(at.top).toBeGreaterThanOrEqual(GAP);
      expect(at.top + Math.min(2000, at.maxHeight)).toBeLessThanOrEqual(view.height - GAP);
    }
  });
});

function Harness({ narrow, slotFirst = false }: { narrow: boolean; slotFirst?: boolean }) {
  const d = useDrawer(narrow);
  const [about, setAbout] = useState(false);
  const slot = <div key="slot" className="drawer-slot"><button type="button">New chat</button></div>;
  const nav = (
    <div key="nav">
      <a href="#/chat">Chat</a>
      <a href="#/servers" aria-current="page">Servers</a>
      <button type="button" onClick={d.close}>Go</button>
      <button type="button" onClick={() => setAbout(true)}>About</button>
    </div>
  );
  return (
    <div>
      <button type="button" ref={d.button} aria-expanded={d.open} onClick={d.toggle}>Menu</button>
      <div ref={d.panel} data-testid="panel" hidden={!d.open}>{slotFirst ? [slot, nav] : [nav, slot]}</div>
      <p data-testid="outside">Page</p>
      {about && <Dialog onClose={() => setAbout(false)} />}
    </div>
  );
}

/** Dialog is a modal the drawer opens, outside it in the page (as About is). */
function Dialog({ onClose }: { onClose: () => void }) {
  const panel = useRef<HTMLDivElement>(null);
  useDismiss(true, onClose, { panel, modal: true });
  return <div role="dialog" aria-label="About" ref={panel}><button type="button" onClick={onClose}>Close</button></div>;
}

// userEvent is slow on a busy machine: the timeout is for that, not for a wait.
describe('useDrawer', { timeout: 30_000 }, () => {
  it('moves focus to the current page on open and back to its button on Esc', async () => {
    render(<Harness narrow />);
    const menu = screen.getByRole('button', { name: 'Menu' });
    await userEvent.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Servers' }));
    await userEvent.keyboard('{Escape}');
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(menu);
  });

  it('closes on a press outside it, not on one inside it', async () => {
    render(<Harness narrow />);
    const menu = screen.getByRole('button', { name: 'Menu' });
    await userEvent.click(menu);
    fireEvent.mouseDown(screen.getByTestId('panel'));
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    fireEvent.mouseDown(screen.getByTestId('outside'));
    expect(menu.getAttribute('aria-expanded')).toBe('false');
  });

  it('toggles with its button, and a choice inside it closes it with focus back on the button', async () => {
    render(<Harness narrow />);
    const menu = screen.getByRole('button', { name: 'Menu' });
    await userEvent.click(menu);
    await userEvent.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(menu);
    await userEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(menu);
  });

  // At 720 px, About from the drawer: Escape closes About (not the drawer
  // hidden under it), and focus goes back to the menu button.
  it('closes as a dialog it opens takes focus; Escape then closes the dialog, focus back on its button', async () => {
    render(<Harness narrow />);
    const menu = screen.getByRole('button', { name: 'Menu' });
    await userEvent.click(menu);
    await userEvent.click(screen.getByRole('button', { name: 'About' }));
    const dialog = screen.getByRole('dialog', { name: 'About' });
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'About' })).toBeNull();
    expect(document.activeElement).toBe(menu);
  });

  it('is an Escape layer: a dialog opened over it closes first', async () => {
    function Both() {
      const d = useDrawer(true);
      const [dialog, setDialog] = useState(false);
      return (
        <div>
          <button type="button" ref={d.button} aria-expanded={d.open} onClick={d.toggle}>Menu</button>
          <div ref={d.panel} hidden={!d.open}>
            <button type="button" onClick={() => setDialog(true)}>Open</button>
            {/* A dialog inside the drawer keeps focus in it: the drawer stays open under it. */}
            {dialog && <Dialog onClose={() => setDialog(false)} />}
          </div>
        </div>
      );
    }
    render(<Both />);
    const menu = screen.getByRole('button', { name: 'Menu' });
    await userEvent.click(menu);
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'About' })).toBeNull();
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    await userEvent.keyboard('{Escape}');
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(menu);
  });

  it('moves focus to what comes first: the chat list when the page puts it above the links', async () => {
    render(<Harness narrow slotFirst />);
    await userEvent.click(screen.getByRole('button', { name: 'Menu' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'New chat' }));
  });

  it('does not open in a wide window, and closes when the window widens', async () => {
    const { rerender } = render(<Harness narrow={false} />);
    const menu = screen.getByRole('button', { name: 'Menu' });
    await userEvent.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    rerender(<Harness narrow />);
    await userEvent.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    act(() => rerender(<Harness narrow={false} />));
    expect(menu.getAttribute('aria-expanded')).toBe('false');
  });
});
