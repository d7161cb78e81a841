import type { MouseEvent, ReactNode } from 'react';
import { openURL } from '../backend';

/**
 * externalURL parses href when the system browser may open it: absolute
 * http(s) or mailto only. Anything else (relative, javascript:, file:) is
 * null, so a link in a model's or server's text can neither run code nor
 * move the app's own page.
 */
export function externalURL(href: string | undefined): URL | null {
  if (!href) return null;
  try {
    const u = new URL(href);
    return ['http:', 'https:', 'mailto:'].includes(u.protocol) ? u : null;
  } catch {
    return null;
  }
}

/** openExternal hands href to the system browser (Wails), never to the app's window. */
export function openExternal(href: string | undefined): void {
  const u = externalURL(href);
  if (u) openURL(u.href);
}

/**
 * ExternalLink is a link from untrusted text (a model's answer, a server's
 * form): a click opens it in the system browser; the app's window never
 * navigates. Links it will not open stay visible (the URL is the title).
 */
export function ExternalLink({ href, children }: { href: string | undefined; children: ReactNode }) {
  const open = (e: MouseEvent) => {
    e.preventDefault();
    openExternal(href);
  };
  const ok = externalURL(href) !== null;
  return (
    <a href={ok ? href : undefined} title={href} onClick={open} onAuxClick={(e) => e.preventDefault()} rel="noreferrer noopener">
      {children}
    </a>
  );
}
