// Server and tool state from the Go side: loaded on demand, kept fresh by the
// "server:status" event. Components read it through useServers / useTools.
import { useEffect } from 'react';
import { CallTool, ConfigError, EventConfigChanged, EventServerStatus, hasBackend, on, RemoveServer, RestartServer, Servers, SetServerEnabled, Tools } from './backend';
import type { gui, host } from './backend';
import { createStore, useSelect } from './store';
import { message } from './errors';

export type ServerView = gui.ServerView;
export type ToolView = gui.ToolView;
export type ToolList = gui.ToolList;
export type CallResult = host.CallResult;

interface ServersState {
  servers: ServerView[];
  configError: string;
  loaded: boolean;
  error: string;
  /** profiles counts changes to the servers' profiles, so the profile menu reloads. */
  profiles: number;
}

const serversStore = createStore<ServersState>({ servers: [], configError: '', loaded: false, error: '', profiles: 0 });
const set = serversStore.set;

let watching = false;

/** refreshServers reloads the list; statuses then stream in by event. */
export async function refreshServers(): Promise<void> {
  if (!hasBackend()) {
    set({ loaded: true });
    return;
  }
  try {
    const [servers, configError] = await Promise.all([Servers(), ConfigError()]);
    set({ servers, configError, loaded: true, error: '' });
  } catch (err) {
    set({ error: message(err), loaded: true });
  }
  if (!watching) {
    watching = true;
    on(EventServerStatus, (v) => {
      const list = serversStore.get().servers;
      const i = list.findIndex((s) => s.name === v.name);
      const cur = list[i];
      if (cur && cur.seq > v.seq) return; // stale: a newer state is shown already
      const servers = i < 0 ? [...list, v] : list.map((s, j) => (j === i ? v : s));
      set({ servers });
    });
    // Another process (the CLI, an editor) changed config.json and the
    // window reloaded it: servers may be gone or renamed, profiles changed.
    on(EventConfigChanged, () => {
      void refreshServers();
      profilesChanged();
    });
  }
}

export function useServers(): ServersState {
  useEffect(() => {
    void refreshServers();
  }, []);
  return useSelect(serversStore, (s) => s);
}

/** readyServers names the ready servers: one key for the set, which a server added, started, stopped or restarted (through another state) changes. */
export function readyServers(list: { name: string; state: string }[]): string {
  return list.filter((s) => s.state === 'ready').map((s) => s.name).sort().join('\n');
}

/** useReadyServers is readyServers of the live list: a component using it renders again only when that set changes, not at each status event. */
export function useReadyServers(): string {
  useEffect(() => {
    void refreshServers();
  }, []);
  return useSelect(serversStore, (s) => readyServers(s.servers));
}

export async function restartServer(name: string): Promise<void> {
  await RestartServer(name);
}

export async function setServerEnabled(name: string, enabled: boolean): Promise<void> {
  await SetServerEnabled(name, enabled);
}

/**
 * removeServer deletes a server from the config (with deleteSecrets, its
 * keyring entries too); the list is reloaded.
 */
export async function removeServer(name: string, deleteSecrets: boolean): Promise<void> {
  await RemoveServer(name, deleteSecrets);
  await refreshServers();
}

export async function listTools(): Promise<ToolList> {
  if (!hasBackend()) return { tools: [], errors: [] };
  return Tools();
}

export async function callTool(name: string, args: string): Promise<CallResult> {
  return CallTool(name, args);
}

/** filterServers keeps the servers that have the tag ("" = any) and whose
 * name, description, tags or command contain every word of the query. */
export function filterServers(servers: ServerView[], query: string, tag: string): ServerView[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return servers.filter((s) => {
    const tags = s.meta?.tags ?? [];
    if (tag && !tags.includes(tag)) return false;
    const text = [s.name, s.description, s.command, s.serverName, ...tags].join(' ').toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** needsAttention is whether the server waits for the user: it failed, or it needs a login. */
export function needsAttention(s: Pick<ServerView, 'state'>): boolean {
  return s.state === 'error' || s.state === 'needs-login';
}

/** attentionFirst puts the servers that need attention first, each group in its own order. */
export function attentionFirst<T extends Pick<ServerView, 'state'>>(servers: T[]): T[] {
  return [...servers.filter(needsAttention), ...servers.filter((s) => !needsAttention(s))];
}

/**
 * plainLine is a Markdown text (a server's description or instructions) as
 * one line of plain text: no heading marks, emphasis, code ticks, link
 * targets, list or quote marks, line breaks as spaces.
 */
export function plainLine(md: string): string {
  return md
    .replace(/```[^\n]*\n?/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/gm, '')
    .replace(/\s#{1,6}\s+/g, ' ')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[\s(])[*_]([^*_\s][^*_]*?)[*_](?=[\s.,;:!?)]|$)/g, '$1$2')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** allTags lists the tags of the servers, sorted. */
export function allTags(servers: ServerView[]): string[] {
  return [...new Set(servers.flatMap((s) => s.meta?.tags ?? []))].sort();
}

/** profilesChanged tells the profile menu that a server's profiles changed. */
export function profilesChanged(): void {
  set({ profiles: serversStore.get().profiles + 1 });
}
