// Typed access to the Go backend through the bindings Wails generates in
// ../wailsjs. Components call these, never window.go directly.
import { Info, Ready } from '../wailsjs/go/app/App';
import type { AppInfo } from './store';

/** DEV_INFO stands in for the backend when the page runs without Wails (plain vite, unit tests). */
export const DEV_INFO: AppInfo = { name: 'Switchboard', version: 'dev', dataDir: '' };

/** hasBackend is false when the page runs without Wails (unit tests, plain vite). */
export function hasBackend(): boolean {
  return typeof window !== 'undefined' && typeof window.go?.app?.App?.Info === 'function';
}

/** hasRuntime is false when the Wails runtime (events) is missing: unit tests that bind only some methods. */
export function hasRuntime(): boolean {
  return typeof window !== 'undefined' && typeof (window as { runtime?: { EventsOnMultiple?: unknown } }).runtime?.EventsOnMultiple === 'function';
}

/** appInfo asks the Go side for name, version and data dir; without a backend it answers DEV_INFO. */
export async function appInfo(): Promise<AppInfo> {
  if (!hasBackend()) return DEV_INFO;
  const i = await Info();
  return { name: i.name, version: i.version, dataDir: i.dataDir };
}

/** versionLabel shows release versions as "v1.2.3" and anything else ("devel+abc", "dev") as is. */
export function versionLabel(version: string): string {
  return /^\d/.test(version) ? `v${version}` : version;
}

/** signalReady tells the backend the first render is on screen; failures only log. */
export function signalReady(): void {
  if (!hasBackend()) return;
  Ready().catch((err: unknown) => console.warn('Ready failed', err));
}

/** call runs a binding, turning a synchronous throw (no such method) into a rejection. */
export function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return fn();
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
}
