import { createContext } from 'react';

/**
 * SaveBar is the Settings page's one Save: each settings form that has
 * unsaved edits registers how to submit itself, and the bar's Save changes
 * submits them all (each form still shows its own "Saved" or error beside
 * its fields). Discard reloads every form from config.json.
 */
export interface SaveBar {
  /** set records that form id (named name) has edits (submit saves them), or has none (null). */
  set(id: string, name: string, submit: (() => void) | null): void;
  /** discarded counts the Discard presses; forms reload when it changes. */
  discarded: number;
}

/** SaveBarContext is the page's SaveBar; null where a form stands alone (it shows its own Save). */
export const SaveBarContext = createContext<SaveBar | null>(null);
