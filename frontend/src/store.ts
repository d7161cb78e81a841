// Stores: each module's state (the page, chats, servers, agents) lives in one
// small external store, read by components with useSyncExternalStore and
// changed only through the module's actions. This file has the helper every
// store is made with, and the app's own store: the page and the backend's info.
import { appsOnScreen, tearDownApps } from './mcpapps/onScreen';
import { useSyncExternalStore } from 'react';
import type { AppInfo } from './backend';
import { pageFromHash, type PageId } from './pages';

/** Store holds one module's state; set merges a patch and tells every subscriber. */
export interface Store<S> {
  get(): S;
  set(patch: Partial<S>): void;
  subscribe(listener: () => void): () => void;
}

/** createStore makes a store starting from initial. */
export function createStore<S extends object>(initial: S): Store<S> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(patch) {
      state = { ...state, ...patch };
      for (const l of listeners) l();
    },
    subscribe(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}

/** useSelect reads a store in a component, re-rendering when what select returns changes. */
export function useSelect<S, T>(s: Store<S>, select: (state: S) => T): T {
  return useSyncExternalStore(s.subscribe, () => select(s.get()));
}

export interface State {
  page: PageId;
  info: AppInfo | null;
  /** backendError is set when the Go side could not be reached. */
  backendError: string | null;
  /** configVersion counts reloads of config.json saved outside the window; what shows settings fetches again. */
  configVersion: number;
}

const appStore = createStore<State>({
  page: pageFromHash(typeof location === 'undefined' ? '' : location.hash),
  info: null,
  backendError: null,
  configVersion: 0,
});

// target is the page last asked for: a page switch that waited for apps
// to be told they go (tearDownApps) must not undo a later one.
let target: PageId | null = null;

/** switchTo shows page, once the MCP Apps on screen heard they go (at once when there are none). */
function switchTo(page: PageId): void {
  target = page;
  if (page === appStore.get().page || !appsOnScreen()) {
    appStore.set({ page });
    return;
  }
  void tearDownApps().then(() => {
    if (target === page) appStore.set({ page });
  });
}

export const store = {
  get: appStore.get,
  subscribe: appStore.subscribe,
  /** navigate changes the page and the URL hash (so reload and back work). */
  navigate(page: PageId): void {
    if (location.hash !== `#/${page}`) location.hash = `#/${page}`;
    switchTo(page);
  },
  /** syncFromHash follows a hash the user or browser changed. */
  syncFromHash(): void {
    switchTo(pageFromHash(location.hash));
  },
  setInfo(info: AppInfo): void {
    appStore.set({ info, backendError: null });
  },
  setBackendError(message: string): void {
    appStore.set({ backendError: message });
  },
  /** configChanged says config.json was reloaded (the CLI or an editor saved it). */
  configChanged(): void {
    appStore.set({ configVersion: appStore.get().configVersion + 1 });
  },
};

/** useConfigVersion is a dependency for effects that fetch settings: it changes when config.json was reloaded. */
export function useConfigVersion(): number {
  return useSelect(appStore, (s) => s.configVersion);
}

export function useStore<T>(select: (s: State) => T): T {
  return useSelect(appStore, select);
}
