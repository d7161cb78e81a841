// The parts of the Wails runtime the window uses besides events (events.ts).
import { BrowserOpenURL } from '../../wailsjs/runtime/runtime';

/** openURL opens url in the system browser, outside the window. */
export function openURL(url: string): void {
  BrowserOpenURL(url);
}
