import { useEffect } from 'react';
import { appInfo, hasBackend } from './backend';
import { Nav } from './components/Nav';
import { PAGES } from './pages';
import { store, useStore } from './store';
import { PageView } from './pages/PageView';

/** App is the shell: navigation on the left, the current page on the right. */
export function App() {
  const page = useStore((s) => s.page);

  useEffect(() => {
    const onHash = () => store.syncFromHash();
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
      const n = Number(e.key);
      const target = Number.isInteger(n) ? PAGES[n - 1] : undefined;
      if (target) {
        e.preventDefault();
        store.navigate(target.id);
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
    if (!hasBackend()) return;
    appInfo().then(store.setInfo, (err: unknown) => store.setBackendError(String(err)));
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
