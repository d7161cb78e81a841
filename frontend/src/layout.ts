// Window-size logic the page layout shares: when the navigation becomes a
// drawer, how wide an element is, and where a popover goes so it stays inside
// the window.
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** NARROW_QUERY is the window width below which the navigation and the chat list live in a drawer (styles.css uses the same width). */
export const NARROW_QUERY = '(max-width: 999px)';

/** useMedia follows a media query; false where the environment cannot evaluate one (jsdom). */
export function useMedia(query: string): boolean {
  const get = () => typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(query).matches;
  const [match, setMatch] = useState(get);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const m = window.matchMedia(query);
    const on = () => setMatch(m.matches);
    on();
    m.addEventListener('change', on);
    return () => m.removeEventListener('change', on);
  }, [query]);
  return match;
}

/** useNarrow is true while the window is narrow enough for the drawer. */
export function useNarrow(): boolean {
  return useMedia(NARROW_QUERY);
}

/**
 * useWidth follows an element's width (ResizeObserver); Infinity until it is
 * measured or where nothing can measure it, so a layout starts in its wide form.
 */
export function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(Number.POSITIVE_INFINITY);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => setWidth(el.getBoundingClientRect().width));
    ro.observe(el);
    setWidth(el.getBoundingClientRect().width);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}

export interface Box { left: number; top: number; width: number; height: number }
export interface Placement { left: number; top: number; maxHeight: number; maxWidth: number; above: boolean }

/** GAP is the space between a popover and its button, and the least space kept to the window's edge. */
export const GAP = 8;

/**
 * placePopover puts a popover of the given size at its anchor (a button):
 * below it with their right edges aligned, or above when there is more room
 * there than below and it does not fit below; then moved sideways into the
 * window. maxWidth and maxHeight are the room there is, so a popover larger
 * than the window scrolls inside instead of leaving it.
 */
export function placePopover(anchor: Box, size: { width: number; height: number }, view: { width: number; height: number }): Placement {
  const maxWidth = Math.max(0, view.width - 2 * GAP);
  const width = Math.min(size.width, maxWidth);
  let left = anchor.left + anchor.width - width;
  left = Math.min(left, view.width - GAP - width);
  left = Math.max(left, GAP);
  const below = view.height - (anchor.top + anchor.height) - 2 * GAP;
  const aboveRoom = anchor.top - 2 * GAP;
  const above = size.height > below && aboveRoom > below;
  const room = Math.max(0, above ? aboveRoom : below);
  const height = Math.min(size.height, room);
  const top = above ? anchor.top - GAP - height : anchor.top + anchor.height + GAP;
  return { left, top, maxHeight: room, maxWidth, above };
}

/**
 * usePopover places the popover in pop at the anchor while open (fixed
 * position, see placePopover) and again when the window is resized or
 * something scrolls, or content (what it shows) changes. Its CSS size stays the popover's preferred size.
 */
export function usePopover(open: boolean, content?: unknown): { anchor: RefObject<HTMLButtonElement | null>; pop: RefObject<HTMLDivElement | null> } {
  const anchor = useRef<HTMLButtonElement>(null);
  const pop = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const a = anchor.current;
    const p = pop.current;
    if (!open || !a || !p) return;
    const place = () => {
      // Measure at the preferred size: drop the limits set last time first.
      p.style.maxHeight = '';
      p.style.maxWidth = '';
      const r = a.getBoundingClientRect();
      const at = placePopover(r, { width: p.offsetWidth, height: p.offsetHeight }, { width: window.innerWidth, height: window.innerHeight });
      Object.assign(p.style, {
        position: 'fixed', right: 'auto', bottom: 'auto',
        left: `${at.left}px`, top: `${at.top}px`, maxHeight: `${at.maxHeight}px`, maxWidth: `${at.maxWidth}px`,
      });
      p.dataset.placement = at.above ? 'above' : 'below';
    };
    place();
    window.addEventListener('resize', place);
    window.addEventListener('scroll', place, true);
    return () => {
      window.removeEventListener('resize', place);
      window.removeEventListener('scroll', place, true);
    };
  }, [open, content]);
  return { anchor, pop };
}
