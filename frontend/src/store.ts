// The app's one store: a tiny external store read with useSyncExternalStore.
// State changes only through the actions below; components subscribe with useStore.
import { useSyncExternalStore } from 'react';
import { pageFromHash, type PageId } from './pages';

export interface AppInfo {
  name: string;
  version: string;
  dataDir: string;
}

export interface State {
  page: PageId;
  info: AppInfo | null;
  /** backendError is set when the Go side could not be reached. */
  backendError: string | null;
}

type Listener = () => void;

let state: State = {
  page: pageFromHash(typeof location === 'undefined' ? '' : location.hash),
  info: null,
  backendError: null,
};
const listeners = new Set<Listener>();

function set(patch: Partial<State>): void {
  state = { ...state, ...patch };
  for (const l of listeners) l();
}

export const store = {
  get: (): State => state,
  subscribe(l: Listener): () => void {
    listeners.add(l);
    return () => listeners.delete(l);
  },
  /** navigate changes the page and the URL hash (so reload and back work). */
  navigate(page: PageId): void {
    if (location.hash !== `#/${page}`) location.hash = `#/${page}`;
    set({ page });
  },
  /** syncFromHash follows a hash the user or browser changed. */
  syncFromHash(): void {
    set({ page: pageFromHash(location.hash) });
  },
  setInfo(info: AppInfo): void {
    set({ info, backendError: null });
  },
  setBackendError(message: string): void {
    set({ backendError: message });
  },
};

export function useStore<T>(select: (s: State) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.get()));
}
