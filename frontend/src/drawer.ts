// The drawer a narrow window keeps the navigation (and the chat list) in.
import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { FOCUSABLE, useDismiss } from './dismiss';

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
 * back to its button when it closes. It is a layer of useDismiss, so Esc
 * closes it only when nothing opened above it (a dialog opened from it
 * closes first). A press outside it closes it, and so does focus going
 * elsewhere than its button: a dialog it opened (About, Shortcuts) is then
 * the one thing on screen, and Esc there closes that dialog.
 */
export function useDrawer(narrow: boolean): Drawer {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  const toggle = useCallback(() => {
    if (open) close();
    else if (narrow) setOpen(true);
  }, [open, narrow, close]);
  // Focus goes to what comes first of the current page's link (it says
  // where the user is) and the page's part of the drawer (the chat list,
  // which the Chat page puts above the links).
  const initial = useMemo<RefObject<HTMLElement | null>>(() => ({
    get current() {
      const here = panel.current?.querySelector<HTMLElement>('[aria-current="page"]') ?? null;
      const slot = panel.current?.querySelector('.drawer-slot')?.querySelector<HTMLElement>(FOCUSABLE) ?? null;
      if (here && slot) return here.compareDocumentPosition(slot) & Node.DOCUMENT_POSITION_PRECEDING ? slot : here;
      return here ?? slot;
    },
  }), []);
  useDismiss(open, close, { panel, opener: button, initial, modal: true });

  useEffect(() => {
    if (!narrow) setOpen(false);
  }, [narrow]);

  useEffect(() => {
    if (!open) return;
    const outside = (t: EventTarget | null) => !(t instanceof Node && (panel.current?.contains(t) || button.current?.contains(t)));
    const onDown = (e: MouseEvent) => {
      if (outside(e.target)) close();
    };
    const onFocus = (e: FocusEvent) => {
      if (outside(e.target)) close();
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('focusin', onFocus);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('focusin', onFocus);
    };
  }, [open, close]);

  return { open, toggle, close, button, panel };
}
