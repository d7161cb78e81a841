// Escape closes, focus returns: the one behaviour every dialog, panel,
// popover and confirm of the window shares (useDismiss).
import { useEffect, useRef, useState, type RefObject } from 'react';
import { usePopover } from './layout';

/** FOCUSABLE finds what the keyboard can reach inside a panel. */
export const FOCUSABLE = 'a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';

/** Layer is one open panel; opener is where focus returns (it changes when the panel it was in closes first). */
interface Layer { panel: RefObject<HTMLElement | null>; opener: HTMLElement | null; modal: boolean; close: () => void }

/** now is what ref points to at this moment (a panel that closes may have changed since it opened). */
const now = <T>(ref?: RefObject<T | null>): T | null => ref?.current ?? null;

/** layers are the open ones, innermost (last opened) last: Escape closes only that one. */
const layers: Layer[] = [];

export interface DismissOptions {
  /** panel is the dialog, panel or popover: focus moves into it when it opens. */
  panel: RefObject<HTMLElement | null>;
  /** opener is the control that opens it, where focus returns when focus was elsewhere (on the page, say: a shortcut opened it). */
  opener?: RefObject<HTMLElement | null>;
  /** initial is where focus goes when it opens; else the panel's first control (one with autoFocus keeps it). */
  initial?: RefObject<HTMLElement | null>;
  /** modal: Escape closes it wherever focus is; else only from inside it, its opener or nowhere (the page's body). */
  modal?: boolean;
  /** preventScroll keeps the panel's scroll where it is as focus moves in (a sheet that opens at its top). */
  preventScroll?: boolean;
}

/**
 * useDismiss is the behaviour of something that opens over or into the page
 * (a dialog, a panel, a popover, a confirm) while open is true: focus moves
 * into it, Escape closes it (onClose), and once it closes focus returns to
 * the control that had it when it opened (or to opts.opener), unless the user
 * already went somewhere else. Open ones nest: Escape closes the innermost.
 * A handler that already took the key (preventDefault, stopPropagation) wins.
 */
export function useDismiss(open: boolean, onClose: () => void, opts: DismissOptions): void {
  const close = useRef(onClose);
  close.current = onClose;
  const { panel, opener, initial, modal = false, preventScroll = false } = opts;
  useEffect(() => {
    if (!open) return;
    const had = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    const from = had && !panel.current?.contains(had) ? had : opener?.current ?? null;
    const layer: Layer = { panel, opener: from, modal, close: () => close.current() };
    layers.push(layer);
    const p = panel.current;
    if (p && !p.contains(document.activeElement)) {
      const first = initial?.current ?? p.querySelector<HTMLElement>(FOCUSABLE);
      if (first) first.focus({ preventScroll });
      else {
        if (!p.hasAttribute('tabindex')) p.tabIndex = -1;
        p.focus({ preventScroll });
      }
    }
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || layers[layers.length - 1] !== layer) return;
      const t = e.target instanceof Node ? e.target : null;
      const mine = layer.modal || !t || t === document.body || panel.current?.contains(t) || (layer.opener?.contains(t) ?? false);
      if (!mine) return;
      e.preventDefault();
      layer.close();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      const i = layers.indexOf(layer);
      if (i >= 0) layers.splice(i, 1);
      // A layer opened from inside this one (About from the drawer) and
      // still open returns focus where this one would: its opener is gone.
      for (const m of layers) if (m.opener && now(panel)?.contains(m.opener)) m.opener = layer.opener ?? now(opener);
      // Back where the user was, unless they went somewhere else meanwhile.
      const a = document.activeElement;
      const lost = !a || a === document.body || !a.isConnected || (now(panel)?.contains(a) ?? false);
      const back = layer.opener?.isConnected ? layer.opener : now(opener);
      if (lost && back?.isConnected) back.focus();
    };
    // The panel, opener and initial refs are stable; the effect runs per opening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
}

/**
 * firstClick runs f for a click that is not the second of a double-click
 * (a key press counts as a click of its own): a confirming button that
 * appears under the pointer is not pressed by the double-click that asked.
 */
export function firstClick(f: () => void): (e: { detail: number }) => void {
  return (e) => {
    if (e.detail > 1) return;
    f();
  };
}

/**
 * useMenu is a "⋯" menu's state: whether it is open, its button (anchor)
 * and its panel (pop), placed inside the window (usePopover). Focus moves
 * into it; Escape (useDismiss) or a press outside closes it, and focus
 * returns to the button.
 */
export function useMenu() {
  const [open, setOpen] = useState(false);
  const { anchor, pop } = usePopover(open);
  useDismiss(open, () => setOpen(false), { panel: pop, opener: anchor });
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      const t = e.target as Node;
      if (!pop.current?.contains(t) && !anchor.current?.contains(t)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open, anchor, pop]);
  return { open, setOpen, anchor, pop };
}
