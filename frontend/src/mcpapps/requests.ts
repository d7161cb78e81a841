// The host's answers to an MCP App's ext-apps 2.x requests: saving a file
// (ui/download-file), asking to be closed (ui/notifications/request-teardown),
// the pip display mode, and sampling from the app. AppFrame wires them to
// its bridge; they are here, apart from the component, so the tests drive
// them through a real AppBridge and the SDK's own App.
import type { AppBridge, McpUiDisplayMode } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { gui } from '../backend';

/** DisplayMode is where an app shows: in its card, over the window, or in a small floating window. */
export type DisplayMode = McpUiDisplayMode;

/** DISPLAY_MODES are the modes this host offers an app (hostContext.availableDisplayModes). */
export const DISPLAY_MODES: DisplayMode[] = ['inline', 'fullscreen', 'pip'];

/** DownloadFile is one file of an app's download, as Go describes it (safe name, type, size). */
export type DownloadFile = gui.AppDownloadView;

/** AppHost is what the answers need of the window: the user, Go, and the app's card. */
export interface AppHost {
  server: string;
  uri: string; // the app's ui:// resource
  chatId: string; // "" outside a chat
  /** describe asks Go which files a download holds, under which safe names. */
  describe(contentsJSON: string): Promise<DownloadFile[]>;
  /** confirm asks the user whether to save them. */
  confirm(files: DownloadFile[]): Promise<boolean>;
  /** save shows the save dialog for file i and writes it; "" when the user cancelled. */
  save(contentsJSON: string, i: number): Promise<string>;
  /** sample sends the app's sampling request through the chat's sampling policy; the result as JSON. */
  sample(paramsJSON: string): Promise<string>;
  /** gesture says whether the user just clicked or typed inside the app's frame (full screen, pip and downloads need one). */
  gesture(): boolean;
  mode(): DisplayMode;
  setMode(m: DisplayMode): void;
  /** close tears the app down (ui/resource-teardown first) and leaves the card's end state. */
  close(): void;
}

const MODE_NAMES: Record<DisplayMode, string> = { inline: 'Inline', fullscreen: 'Full screen', pip: 'Picture-in-picture' };

/**
 * hostCapabilities2026 are the capabilities these answers add to what the
 * host declares at ui/initialize.
 */
export const hostCapabilities2026 = { downloadFile: {}, sampling: {} };

/** answerAppRequests wires the answers to bridge. */
export function answerAppRequests(bridge: AppBridge, h: AppHost): void {
  bridge.ondownloadfile = async ({ contents }) => {
    // Saving asks the user and then opens a save dialog a file: as full screen, only when the user just acted inside the app.
    if (!h.gesture()) throw new Error('Saving a file needs a user gesture: ask from a click or key press inside the app.');
    const json = JSON.stringify(contents ?? []);
    const files = await h.describe(json);
    if (!(await h.confirm(files))) return { isError: true };
    for (let i = 0; i < files.length; i++) {
      if (!(await h.save(json, i))) return { isError: true }; // the save dialog was cancelled
    }
    return {};
  };
  bridge.onrequestdisplaymode = async ({ mode: want }) => {
    if (!DISPLAY_MODES.includes(want)) return { mode: h.mode() };
    // Full screen and picture-in-picture take the window's space: only when the user just acted inside the app.
    if (want !== 'inline' && want !== h.mode() && !h.gesture()) {
      throw new Error(`${MODE_NAMES[want]} needs a user gesture: ask from a click or key press inside the app.`);
    }
    h.setMode(want);
    return { mode: want };
  };
  bridge.oncreatesamplingmessage = async (params) => JSON.parse(await h.sample(JSON.stringify(params)));
  bridge.addEventListener('requestteardown', () => h.close());
}

type Activation = { isActive: boolean };

/**
 * gestureIn says whether the user just acted inside frame: focus is in it
 * (a click or key press there moved it), and the window holds a transient
 * user activation, which a gesture inside a frame gives its ancestors too.
 * Without navigator.userActivation, focus in the frame is taken as one.
 */
export function gestureIn(frame: HTMLIFrameElement | null, doc: Document = document, activation: Activation | undefined = (navigator as Navigator & { userActivation?: Activation }).userActivation): boolean {
  if (!frame || doc.activeElement !== frame) return false;
  return activation ? activation.isActive : true;
}

/** fileSize says a download's size in words. */
export function fileSize(n: number): string {
  if (n < 1024) return `${n} byte${n === 1 ? '' : 's'}`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
