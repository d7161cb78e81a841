// The pages of the app, in navigation order. Ctrl/Cmd+N opens the Nth.
export const PAGES = [
  { id: 'chat', title: 'Chat' },
  { id: 'servers', title: 'Servers' },
  { id: 'tools', title: 'Tools' },
  { id: 'knowledge', title: 'Knowledge' },
  { id: 'workspace', title: 'Workspace' },
  { id: 'agents', title: 'Agents' },
  { id: 'settings', title: 'Settings' },
  { id: 'skills', title: 'Skills' },
] as const;

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
