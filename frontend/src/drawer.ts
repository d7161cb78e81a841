// The drawer a narrow window keeps the navigation (and the chat list) in.
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/** FOCUSABLE finds what the keyboard can reach inside the drawer. */
const FOCUSABLE = 'a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';

export interface Drawer {
  open: boolean;
  toggle: () => void;
  close: () => void;
  /** button opens and closes the drawer; focus returns to it on close. */
  button: RefObject<HTMLButtonElement | null>;
  /** panel is the drawer itself: focus moves into it on open, and a press outside it closes it. */
  panel: RefObject<HTMLDivElement | null>;
}

/**
 * useDrawer is the drawer's behaviour: it opens only while the window is
 * narrow (and closes when it widens), focus moves into it when it opens and
 * back to its button when it closes, and Esc or a press outside it closes it.
 */
export function useDrawer(narrow: boolean): Drawer {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const isOpen = useRef(false);
  isOpen.current = open;
  const close = useCallback(() => {
    if (!isOpen.current) return;
    isOpen.current = false;
    setOpen(false);
    // Back to the button, unless the user already went somewhere else.
    const a = document.activeElement;
    if (!a || a === document.body || panel.current?.contains(a)) button.current?.focus();
  }, []);
  const toggle = useCallback(() => {
    if (open) close();
    else if (narrow) setOpen(true);
  }, [open, narrow, close]);

  useEffect(() => {
    if (!narrow) setOpen(false);
  }, [narrow]);

  useEffect(() => {
    if (!open) return;
    // The current page's link first: it says where the user is.
    const p = panel.current;
    (p?.querySelector<HTMLElement>('[aria-current="page"]') ?? p?.querySelector<HTMLElement>(FOCUSABLE))?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      close();
    };
    const onDown = (e: MouseEvent) => {
      const t = e.target as Node | null;
      if (t && (panel.current?.contains(t) || button.current?.contains(t))) return;
      close();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onDown);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onDown);
    };
  }, [open, close]);

  return { open, toggle, close, button, panel };
}
