import { useEffect, useState } from 'react';
import { hasBackend, Icon as FetchIcon } from '../backend';

/** Icons fetched through Go, by source: one request per source per window. */
const cache = new Map<string, Promise<string>>();

function dataURL(src: string): Promise<string> {
  let p = cache.get(src);
  if (!p) {
    p = FetchIcon(src).catch(() => '');
    cache.set(src, p);
  }
  return p;
}

/**
 * ServerIcon shows an icon a server listed (of itself, a tool, a prompt or
 * a resource) beside its name. A data: source is shown as is; an https:
 * one is fetched by the Go side (size and time limits, cached) and shown as
 * the data: URL it returns — the window never loads a server's URL. Nothing
 * is shown without a usable source. Decorative: the name is beside it.
 */
export function ServerIcon({ src, size = 16 }: { src?: string; size?: number }) {
  const direct = src?.startsWith('data:') ? src : '';
  const [fetched, setFetched] = useState('');
  useEffect(() => {
    setFetched('');
    if (!src || direct || !src.startsWith('https://') || !hasBackend()) return;
    let live = true;
    void dataURL(src).then((u) => {
      if (live && u.startsWith('data:')) setFetched(u);
    });
    return () => {
      live = false;
    };
  }, [src, direct]);
  const url = direct || fetched;
  if (!url) return null;
  return <img className="server-icon" src={url} alt="" width={size} height={size} data-testid="server-icon" />;
}

// Line icons of the interface, one set, drawn in currentColor (no emoji: they
// show as empty boxes where no emoji font is installed). 24×24 paths.
const GLYPHS = {
  menu: 'M4 6h16M4 12h16M4 18h16',
  more: 'M5 12h.01M12 12h.01M19 12h.01',
  close: 'M6 6l12 12M18 6L6 18',
  lock: 'M7 11V8a5 5 0 0 1 10 0v3M5 11h14v9H5z',
  warning: 'M12 4L2.5 20h19zM12 10v4M12 17h.01',
  save: 'M12 4v11M7 10l5 5 5-5M5 20h14',
  copy: 'M9 9h10v11H9zM5 15V4h10',
  plus: 'M12 5v14M5 12h14',
  chats: 'M4 5h16v10H9l-5 4z',
  check: 'M5 12.5l4.5 4.5L19 7.5',
  edit: 'M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4',
  retry: 'M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7',
  stop: 'M7 7h10v10H7z',
  up: 'M12 19V5M6 11l6-6 6 6',
  down: 'M12 5v14M6 13l6 6 6-6',
} as const;

export type IconName = keyof typeof GLYPHS;

/**
 * Icon draws one of the interface's line icons. Without a label it is
 * decorative (the text beside it says what it means); with one, it is the
 * accessible name of what it stands in for.
 */
export function Icon({ name, size = 16, label }: { name: IconName; size?: number; label?: string }) {
  return (
    <svg className={`icon icon-${name}`} viewBox="0 0 24 24" width={size} height={size} focusable="false"
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}>
      <path d={GLYPHS[name]} fill="none" stroke="currentColor" strokeWidth={name === 'more' ? 3 : 1.8} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
