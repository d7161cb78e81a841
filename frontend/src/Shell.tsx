import { useEffect, useLayoutEffect, useRef } from 'react';
import { appInfo, DEV_INFO, EventAbout, EventConfigChanged, EventMenu, EventFileOpen, hasBackend, hasMethod, hasRuntime, on, setWindowTitle, signalReady, TakeOpenedFiles } from './backend';
import { AboutDialog } from './components/AboutDialog';
import { CloseWithAppsDialog } from './components/CloseWithAppsDialog';
import { OpenedFiles } from './components/OpenedFiles';
import { WelcomePage } from './pages/welcome/WelcomePage';
import { useWelcome, welcome } from './welcome';
import { listenLocalModel } from './localmodel';
import { Nav } from './components/Nav';
import { PAGES, isPageId, type PageId } from './pages';
import { store, useStore } from './store';
import { PageView } from './pages/PageView';
import { useDrawer } from './drawer';
import { useNarrow } from './layout';
import { newChat, useChat } from './chat';
import { askImport, commandFor, openSheet } from './shortcuts';
import { ShortcutsSheet } from './components/ShortcutsSheet';
import { Icon } from './components/Icon';

/**
 * runCommand does what a shortcut or its native menu item does (the table is
 * app/gui/shortcuts.go): open a page, start a new chat, open the import, the
 * shortcuts sheet or About. Each leaves the welcome page first.
 */
export function runCommand(id: string): void {
  welcome.leave();
  openSheet(false);
  if (id.startsWith('page:')) {
    const p = id.slice('page:'.length);
    if (isPageId(p)) store.navigate(p);
  } else if (id === 'newChat') {
    store.navigate('chat');
    void newChat();
  } else if (id === 'import') {
    store.navigate('servers');
    askImport();
  } else if (id === 'settings') {
    store.navigate('settings');
  } else if (id === 'shortcuts') {
    openSheet(true);
  } else if (id === 'about') {
    void welcome.showAbout();
  }
}

/**
 * windowTitle is what the window's title bar says: where the user is (the
 * welcome page, the page, or on the Chat page the open chat's title), then
 * the app's name, as "Servers — Switchboard".
 */
export function windowTitle(welcoming: boolean, page: PageId, chat: { title: string } | undefined): string {
  let where: string = PAGES.find((p) => p.id === page)?.title ?? '';
  if (welcoming) where = 'Welcome';
  else if (page === 'chat' && chat) where = chat.title || 'Untitled chat';
  return where ? `${where} — Switchboard` : 'Switchboard';
}

/**
 * focusHeading moves focus to the page's heading after a page switch, so a
 * screen reader says where the user is now (the h1 takes focus without
 * entering the Tab order). A page that already put focus inside itself
 * (the chat's composer) keeps it.
 */
export function focusHeading(main: HTMLElement | null): void {
  const a = document.activeElement;
  if (!main || (a && a !== document.body && main.contains(a))) return;
  const h = main.querySelector<HTMLElement>('h1');
  if (!h) return;
  if (!h.hasAttribute('tabindex')) h.tabIndex = -1;
  h.focus({ preventScroll: true });
}

/**
 * Shell is the window's frame: navigation on the left, the current page on the right.
 * In a narrow window the navigation (and, on the Chat page, the chat list
 * above it) is in a drawer a menu button opens.
 */
export function Shell() {
  const page = useStore((s) => s.page);
  const welcoming = useWelcome((s) => s.open);
  const chat = useChat((s) => s.current);
  const chatTitle = useChat((s) => s.chats.find((c) => c.id === s.current)?.title);
  const narrow = useNarrow();
  const drawer = useDrawer(narrow);
  const chatFirst = narrow && page === 'chat' && !welcoming;
  const nav = <Nav key="nav" />;
  const slot = <div key="slot" id="drawer-slot" className="drawer-slot" />;
  const { close } = drawer;
  // Each page opens at its top: the content is one scroll container for
  // every page. (A deep link to a part of a page, such as a Settings
  // section, scrolls there in the page's own effect, which runs after this.)
  const main = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    main.current?.scrollTo?.({ top: 0, left: 0 });
  }, [page, welcoming]);
  // Where the user went from the drawer is on screen now: the drawer goes.
  useEffect(close, [page, chat, welcoming, close]);
  // A page switch moves focus to the new page's heading, once the drawer
  // is closed (the page is inert while it is open). The page the window
  // opens on is left alone.
  const shown = useRef({ page, welcoming, pending: false });
  useEffect(() => {
    const s = shown.current;
    if (s.page !== page || s.welcoming !== welcoming) shown.current = { page, welcoming, pending: true };
    if (!shown.current.pending || drawer.open) return;
    shown.current.pending = false;
    focusHeading(main.current);
  }, [page, welcoming, drawer.open]);
  // The title bar follows the page (and the open chat's title).
  useEffect(() => {
    setWindowTitle(windowTitle(welcoming, page, chat ? { title: chatTitle ?? '' } : undefined));
  }, [welcoming, page, chat, chatTitle]);

  useEffect(() => {
    store.syncFromHash();
    shown.current.page = store.get().page; // the page the window opens on, not a switch
    const onHash = () => store.syncFromHash();
    const onKey = (e: KeyboardEvent) => {
      const id = commandFor(e);
      if (id && id !== 'quit') {
        e.preventDefault();
        runCommand(id);
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
    const offs = hasRuntime()
      ? [
          on(EventConfigChanged, () => store.configChanged()),
          on(EventAbout, () => void welcome.showAbout()),
          on(EventMenu, (m) => runCommand(m.id)),
          listenLocalModel(),
          // A file opened with Switchboard (a .mcpb bundle): the Servers page
          // is where bundles are installed.
          on(EventFileOpen, (f) => {
            welcome.fileOpened(f.path);
            store.navigate('servers');
          }),
        ]
      : [];
    const off = () => offs.forEach((f) => f());
    welcome.load().catch((err: unknown) => console.warn('welcome', err));
    // Files handed over before this listener existed (opened at start-up).
    if (hasMethod('Window', 'TakeOpenedFiles')) {
      TakeOpenedFiles().then((fs) => {
        for (const f of fs) welcome.fileOpened(f);
        if (fs.length > 0) store.navigate('servers');
      }, () => undefined);
    }
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
    <div className={`shell${narrow ? ' narrow' : ''}${drawer.open ? ' drawer-open' : ''}`}>
      {narrow && (
        <header className="topbar">
          <button type="button" ref={drawer.button} className="icon-button" aria-expanded={drawer.open} aria-controls="drawer"
            aria-label={page === 'chat' && !welcoming ? 'Menu and chats' : 'Menu'} onClick={drawer.toggle}>
            <Icon name="menu" size={20} />
          </button>
          <span className="topbar-title">{welcoming ? 'Welcome' : PAGES.find((p) => p.id === page)?.title}</span>
        </header>
      )}
      <div className={`drawer${chatFirst ? ' drawer-chat' : ''}`} id="drawer" ref={drawer.panel} aria-label={narrow ? 'Menu' : undefined} role={narrow ? 'dialog' : undefined} aria-modal={narrow && drawer.open ? true : undefined}>
        {/* On the Chat page the chat list comes first and the page links
            are a compact row at the drawer's foot (keys keep both elements
            as they move: the list is portalled into the slot). */}
        {chatFirst ? [slot, nav] : [nav, slot]}
      </div>
      {drawer.open && <div className="drawer-backdrop" aria-hidden="true" />}
      <main className="content" id="main" ref={main} inert={drawer.open}>
        {!welcoming && page === 'servers' && <OpenedFiles />}
        {welcoming ? <WelcomePage /> : <PageView page={page} />}
      </main>
      <AboutDialog />
      <CloseWithAppsDialog />
      <ShortcutsSheet />
    </div>
  );
}
