// Go events, typed: names and payload types come from events.gen.ts, which
// 'go generate ./app' writes from the Go constants.
import { EventsOn } from '../../wailsjs/runtime/runtime';
import type { EventPayloads } from '../events.gen';

/** on listens to a Go event; it returns the function that stops listening. */
export function on<K extends keyof EventPayloads>(name: K, fn: (payload: EventPayloads[K]) => void): () => void {
  return EventsOn(name, fn);
}
