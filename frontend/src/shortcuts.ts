// Keyboard shortcuts: the one table (shortcuts.gen.ts, from app/gui/shortcuts.go,
// which also builds the native menu) read as the page needs it: which command a
// key press is, how to show a shortcut (Ctrl+N, ⌘N on macOS), and the commands
// the menu and the keys run.
import { SHORTCUTS } from './shortcuts.gen';
import { createStore, useSelect } from './store';

export type Shortcut = (typeof SHORTCUTS)[number];
export type ShortcutId = Shortcut['id'];

export const isMac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform);

type Keyish = Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>;

/** keyName is the key of a press as the table names it: a digit by its physical key (AZERTY's digit row needs Shift), a letter upper-cased. */
function keyName(e: Keyish): string {
  const digit = /^(?:Digit|Numpad)(\d)$/.exec(e.code)?.[1];
  if (digit) return digit;
  if (e.key.length === 1) return e.key.toUpperCase();
  return e.key;
}

/**
 * commandFor says which shortcut of the menus a key press is: Ctrl (⌘ on
 * macOS; either is taken, as the native menu's CmdOrCtrl) with the key, and no
 * Alt. Keys only the chat composer handles (Enter, Esc) are not commands.
 */
export function commandFor(e: Keyish, shortcuts: readonly Shortcut[] = SHORTCUTS): ShortcutId | undefined {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return undefined;
  const name = keyName(e);
  // Shift is part of the key on some layouts ("/" is Shift+7 on German keyboards): a digit must come without it.
  if (e.shiftKey && /^\d$/.test(name)) return undefined;
  return shortcuts.find((s) => s.menu !== '' && s.keys.toUpperCase() === `CMDORCTRL+${name}`.toUpperCase())?.id;
}

/** keysLabel shows an accelerator as the platform writes it: "Ctrl+N", or "⌘N" on macOS. */
export function keysLabel(keys: string, mac = isMac): string {
  if (!keys) return '';
  const parts = keys.split('+').map((p) => (p === '' ? '+' : p));
  const named: Record<string, [string, string]> = {
    CmdOrCtrl: ['⌘', 'Ctrl+'], Shift: ['⇧', 'Shift+'], Alt: ['⌥', 'Alt+'], Esc: ['Esc', 'Esc'], Up: ['↑', '↑'], Enter: ['Return', 'Enter'],
  };
  return parts.map((p, i) => {
    const n = named[p];
    if (!n) return p.length === 1 ? p.toUpperCase() : p;
    const s = mac ? n[0] : n[1];
    return i === parts.length - 1 ? s.replace(/\+$/, '') : s;
  }).join('');
}

/** shortcutOf is the label of a command's keys ("Ctrl+N"), '' when it has none. */
export function shortcutOf(id: ShortcutId, mac = isMac): string {
  return keysLabel(SHORTCUTS.find((s) => s.id === id)?.keys ?? '', mac);
}

/** withShortcut adds a command's keys to a tooltip: "New chat (Ctrl+N)". */
export function withShortcut(title: string, id: ShortcutId): string {
  const k = shortcutOf(id);
  return k ? `${title} (${k})` : title;
}

/** ariaKeys is a command's keys for aria-keyshortcuts ("Control+N", "Meta+N"). */
export function ariaKeys(id: ShortcutId, mac = isMac): string | undefined {
  const keys = SHORTCUTS.find((s) => s.id === id)?.keys;
  return keys ? keys.replace('CmdOrCtrl', mac ? 'Meta' : 'Control') : undefined;
}

/** Requests the commands make of pages that are not always on screen. */
interface Requests {
  /** sheet is true while the shortcuts sheet is open. */
  sheet: boolean;
  /** importAsked is File → Import not yet taken: the Servers page opens its import and takes it. */
  importAsked: boolean;
}
const requests = createStore<Requests>({ sheet: false, importAsked: false });
export const useRequests = <T,>(select: (r: Requests) => T): T => useSelect(requests, select);
export const openSheet = (open: boolean): void => requests.set({ sheet: open });
export const askImport = (): void => requests.set({ importAsked: true });
export const takeImport = (): void => requests.set({ importAsked: false });
