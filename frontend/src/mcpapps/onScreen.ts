// Which MCP Apps are on screen, so a page switch or a chat change can tell
// them they go before their frames are removed. Apart from toolApps.ts (which
// calls the backend) because the window's store needs it: store.ts must not
// depend on the backend's tool lookups.

/** onScreen are the teardowns of the apps on screen (see tearDownApps). */
const onScreen = new Set<() => Promise<void>>();

/** showing registers an app on screen and its teardown; the returned function unregisters it. */
export function showing(teardown: () => Promise<void>): () => void {
  onScreen.add(teardown);
  return () => { onScreen.delete(teardown); };
}

/** appsOnScreen reports whether any app is on screen (tearDownApps would wait for it). */
export function appsOnScreen(): boolean {
  return onScreen.size > 0;
}

/**
 * tearDownApps tells every app on screen that it goes away
 * (ui/resource-teardown) and waits for their answers, each bounded: the
 * view holding them (a chat) is replaced only after, so each app's frame
 * is still there to answer. Without it React would remove the frames with
 * their cards before any app heard of it.
 */
export async function tearDownApps(): Promise<void> {
  const all = [...onScreen];
  onScreen.clear();
  await Promise.all(all.map((t) => t().catch(() => {})));
}
