import { useEffect, useState } from 'react';
import { Icon as FetchIcon } from '../../wailsjs/go/app/ContentPage';
import { hasBackend } from '../backend';

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
