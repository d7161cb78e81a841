// The model on this computer: what it is doing, as the Go side reports it
// (EventLocalModel). Settings → Models shows it in full; a chat waiting
// for its first answer says the model is loading.
import { EventLocalModel, LocalModelStatus, call, hasMethod, on } from './backend';
import type { gui } from './backend';
import { createStore, useSelect } from './store';

export const localModel = createStore<{ view: gui.LocalRuntimeView | null }>({ view: null });

/** listenLocalModel follows the status events; it returns the function that stops. */
export function listenLocalModel(): () => void {
  return on(EventLocalModel, (view) => localModel.set({ view }));
}

/** refreshLocalModel asks the Go side for the status now. */
export async function refreshLocalModel(): Promise<void> {
  if (!hasMethod('SettingsPage', 'LocalModelStatus')) return;
  localModel.set({ view: await call(LocalModelStatus) });
}

/** useLocalModel is the status in a component (null before it is known). */
export function useLocalModel(): gui.LocalRuntimeView | null {
  return useSelect(localModel, (s) => s.view);
}

/** waitingLabel is what a chat waiting for its first answer says, given the status. */
export function waitingLabel(v: gui.LocalRuntimeView | null): string {
  if (v?.state === 'starting') return `Loading ${v.model} on this computer…`;
  if (v?.state === 'restarting') return 'The model on this computer is starting again…';
  return '';
}
