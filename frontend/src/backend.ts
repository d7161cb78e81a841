// Typed access to the Go backend through the bindings Wails generates in
// ../wailsjs. Components call these, never window.go directly.
import { Info } from '../wailsjs/go/app/App';
import type { AppInfo } from './store';

/** hasBackend is false when the page runs without Wails (unit tests, plain vite). */
export function hasBackend(): boolean {
  return typeof window !== 'undefined' && typeof window.go?.app?.App?.Info === 'function';
}

export async function appInfo(): Promise<AppInfo> {
  const i = await Info();
  return { name: i.name, version: i.version, dataDir: i.dataDir };
}
