import { useEffect } from 'react';
import { DEV_INFO, appInfo, hasBackend, hasRuntime, signalReady } from './backend';
import { on } from './events';
import { EventConfigChanged } from './events.gen';
import { Nav } from './components/Nav';
import { PAGES, type PageId } from './pages';
import { store, useStore } from './store';
import { PageView } from './pages/PageView';

/**
 * shortcutPage maps Ctrl/Cmd+1..7 to a page. It reads the physical key
 * (e.code) first, so layouts whose digit row needs Shift (AZERTY) work too.
 */
export function shortcutPage(e: Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>): PageId | undefined {
  if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return undefined;
  const digit = /^(?:Digit|Numpad)(\d)$/.exec(e.code)?.[1] ?? e.key;
  if (!/^\d$/.test(digit)) return undefined;
  return PAGES[Number(digit) - 1]?.id;
}

/** App is the shell: navigation on the left, the current page on the right. */
export function App() {
  const page = useStore((s) => s.page);

  useEffect(() => {
    store.syncFromHash();
    const onHash = () => store.syncFromHash();
    const onKey = (e: KeyboardEvent) => {
      const target = shortcutPage(e);
      if (target) {
        e.preventDefault();
        store.navigate(target);
      }
    };
    window.addEventListener('hashchange', onHash);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('hashchange', onHash);
      window.removeEventListener('keydown', onKey);
    };
  }, []);

  useEffect(() => {
    if (!hasBackend()) {
      store.setInfo(DEV_INFO); // plain vite or tests: nothing to ask
      return;
    }
    let live = true;
    // Tell the Go side the first render is on screen (start-up timing, smoke test).
    signalReady();
    const off = hasRuntime() ? on(EventConfigChanged, () => store.configChanged()) : () => undefined;
    appInfo().then(
      (info) => live && store.setInfo(info),
      (err: unknown) => live && store.setBackendError(err instanceof Error ? err.message : String(err)),
    );
    return () => {
      live = false;
      off();
    };
  }, []);

  return (
    <div className="shell">
      <Nav />
      <main className="content" id="main">
        <PageView page={page} />
      </main>
    </div>
  );
}
