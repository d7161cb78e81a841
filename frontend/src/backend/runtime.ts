// The parts of the Wails runtime the window uses besides events (events.ts).
import { BrowserOpenURL, WindowSetTitle } from '../../wailsjs/runtime/runtime';
import { hasRuntime } from './connection';

/** openURL opens url in the system browser, outside the window. */
export function openURL(url: string): void {
  BrowserOpenURL(url);
}

/**
 * setWindowTitle names the window (its title bar, the task bar, the window
 * switcher) and the document; in a browser or a unit test, the document only.
 */
export function setWindowTitle(title: string): void {
  document.title = title;
  if (hasRuntime()) WindowSetTitle(title);
}
