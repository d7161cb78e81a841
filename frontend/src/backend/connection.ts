// Whether the Go side is there, and the calls every page makes of it
// (info, ready). It imports only the generated code, never the app's own
// modules: the backend module is the bottom layer, so it can close no cycle.
import { Info, Ready } from '../../wailsjs/go/gui/Window';
import type { gui } from '../../wailsjs/go/models';
import type * as AgentsPageMethods from '../../wailsjs/go/gui/AgentsPage';
import type * as BundlesMethods from '../../wailsjs/go/gui/Bundles';
import type * as ChatPageMethods from '../../wailsjs/go/gui/ChatPage';
import type * as ContentMethods from '../../wailsjs/go/gui/Content';
import type * as MCPAppsMethods from '../../wailsjs/go/gui/MCPApps';
import type * as MCPRegistryMethods from '../../wailsjs/go/gui/MCPRegistry';
import type * as SafetyMethods from '../../wailsjs/go/gui/Safety';
import type * as SandboxMethods from '../../wailsjs/go/gui/Sandbox';
import type * as ServersPageMethods from '../../wailsjs/go/gui/ServersPage';
import type * as SettingsPageMethods from '../../wailsjs/go/gui/SettingsPage';
import type * as ToolsPageMethods from '../../wailsjs/go/gui/ToolsPage';
import type * as WelcomePageMethods from '../../wailsjs/go/gui/WelcomePage';
import type * as WindowMethods from '../../wailsjs/go/gui/Window';
import type * as WorkspacePageMethods from '../../wailsjs/go/gui/WorkspacePage';

/** AppInfo is the backend's name, version and data dir. */
export type AppInfo = gui.Info;

/** DEV_INFO stands in for the backend when the page runs without Wails (plain vite, unit tests). */
export const DEV_INFO: AppInfo = { name: 'Switchboard', version: 'dev', dataDir: '' };

/** hasBackend is false when the page runs without Wails (unit tests, plain vite). */
export function hasBackend(): boolean {
  return typeof window !== 'undefined' && typeof window.go?.gui?.Window?.Info === 'function';
}

/** Bound is every struct the window binds, with its methods as Wails generates them. */
type Bound = {
  AgentsPage: typeof AgentsPageMethods;
  Bundles: typeof BundlesMethods;
  ChatPage: typeof ChatPageMethods;
  Content: typeof ContentMethods;
  MCPApps: typeof MCPAppsMethods;
  MCPRegistry: typeof MCPRegistryMethods;
  Safety: typeof SafetyMethods;
  Sandbox: typeof SandboxMethods;
  ServersPage: typeof ServersPageMethods;
  SettingsPage: typeof SettingsPageMethods;
  ToolsPage: typeof ToolsPageMethods;
  WelcomePage: typeof WelcomePageMethods;
  Window: typeof WindowMethods;
  WorkspacePage: typeof WorkspacePageMethods;
};

/**
 * hasMethod says whether Wails bound struct.method: a window built from an
 * older Go side, or a unit test binding only some methods, may lack it.
 * Both names are checked against the generated bindings, so a renamed
 * struct or method fails to compile here instead of reading as absent.
 */
export function hasMethod<S extends keyof Bound>(struct: S, method: keyof Bound[S] & string): boolean {
  return typeof window !== 'undefined' && typeof window.go?.gui?.[struct]?.[method] === 'function';
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
