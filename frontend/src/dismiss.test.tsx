import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useRef, useState } from 'react';
import { useDismiss } from './dismiss';

function Panel({ label, onClose, modal, children }: { label: string; onClose: () => void; modal?: boolean; children?: React.ReactNode }) {
  const panel = useRef<HTMLDivElement>(null);
  useDismiss(true, onClose, { panel, modal });
  return (
    <div ref={panel} role="dialog" aria-label={label}>
      <button type="button">Inside {label}</button>
      {children}
    </div>
  );
}

function Opener({ modal }: { modal?: boolean }) {
  const [open, setOpen] = useState(false);
  const [inner, setInner] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>Open</button>
      <button type="button">Elsewhere</button>
      {open && (
        <Panel label="outer" modal={modal} onClose={() => setOpen(false)}>
          <button type="button" onClick={() => setInner(true)}>Open inner</button>
          {inner && <Panel label="inner" onClose={() => setInner(false)} />}
        </Panel>
      )}
    </>
  );
}

describe('useDismiss', () => {
  it('moves focus into the panel, closes on Escape and returns focus to the opener', () => {
    render(<Opener />);
    const open = screen.getByRole('button', { name: 'Open' });
    open.focus();
    fireEvent.click(open);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Inside outer' }));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(open);
  });

  it('closes the innermost of nested panels first', () => {
    render(<Opener />);
    const open = screen.getByRole('button', { name: 'Open' });
    open.focus();
    fireEvent.click(open);
    const openInner = screen.getByRole('button', { name: 'Open inner' });
    openInner.focus();
    fireEvent.click(openInner);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Inside inner' }));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'inner' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'outer' })).toBeTruthy();
    expect(document.activeElement).toBe(openInner);
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(open);
  });

  it('leaves a key another handler took, and Escape from elsewhere on the page to a modal only', () => {
    const { unmount } = render(<Opener />);
    const open = screen.getByRole('button', { name: 'Open' });
    open.focus();
    fireEvent.click(open);
    const elsewhere = screen.getByRole('button', { name: 'Elsewhere' });
    elsewhere.focus();
    fireEvent.keyDown(elsewhere, { key: 'Escape' });
    expect(screen.getByRole('dialog', { name: 'outer' })).toBeTruthy();
    const inside = screen.getByRole('button', { name: 'Inside outer' });
    inside.addEventListener('keydown', (e) => e.preventDefault(), { once: true });
    fireEvent.keyDown(inside, { key: 'Escape' });
    expect(screen.getByRole('dialog', { name: 'outer' })).toBeTruthy();
    // Focus elsewhere when it closes stays there.
    elsewhere.focus();
    act(() => unmount());
    render(<Opener modal />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    const away = screen.getByRole('button', { name: 'Elsewhere' });
    away.focus();
    fireEvent.keyDown(away, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(away);
  });
});
