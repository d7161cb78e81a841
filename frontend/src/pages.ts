// The pages of the app, in navigation order (the table is app/gui/shortcuts.go,
// generated into shortcuts.gen.ts). Ctrl/Cmd+N opens the Nth.
import { PAGES } from './shortcuts.gen';

export { PAGES };

export type PageId = (typeof PAGES)[number]['id'];

export const DEFAULT_PAGE: PageId = 'chat';

export function isPageId(s: string): s is PageId {
  return PAGES.some((p) => p.id === s);
}

/** pageFromHash maps "#/servers" to "servers"; anything unknown to the default page. */
export function pageFromHash(hash: string): PageId {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
  return isPageId(id) ? id : DEFAULT_PAGE;
}
