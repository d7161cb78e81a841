import icon from '../assets/icon.svg';
import { versionLabel } from '../backend';
import { PAGES } from '../pages';
import { store, useStore } from '../store';
import { useWelcome, welcome } from '../welcome';
import { NavIcon } from './NavIcon';
import { ariaKeys, openSheet, withShortcut } from '../shortcuts';

/** Nav is the left navigation: one link per page, the app's version at the foot. */
export function Nav() {
  const page = useStore((s) => s.page);
  // While the welcome page shows, no page of the list is the one on screen.
  const welcoming = useWelcome((s) => s.open);
  const info = useStore((s) => s.info);
  const backendError = useStore((s) => s.backendError);

  return (
    <nav className="nav" aria-label="Main">
      <div className="brand">
        <img src={icon} alt="" width={28} height={28} />
        <span>Switchboard</span>
      </div>
      <ul>
        {PAGES.map((p) => (
          <li key={p.id}>
            <a
              href={`#/${p.id}`}
              aria-current={!welcoming && page === p.id ? 'page' : undefined}
              aria-keyshortcuts={ariaKeys(`page:${p.id}`)}
              title={withShortcut(p.title, `page:${p.id}`)}
              onClick={(e) => {
                e.preventDefault();
                welcome.leave(); // the navigation works during welcome
                store.navigate(p.id);
              }}
            >
              <NavIcon page={p.id} />
              <span>{p.title}</span>
            </a>
          </li>
        ))}
      </ul>
      <footer className="nav-foot" role="status">
        {backendError ? (
          <span className="warn" title={backendError}>
            Backend unreachable
          </span>
        ) : info ? (
          <span title={info.dataDir ? `Data: ${info.dataDir}` : undefined}>{versionLabel(info.version)}</span>
        ) : null}
      </footer>
      <div className="nav-help">
        <button type="button" className="nav-about" onClick={() => void welcome.showAbout()}>About Switchboard</button>
        <button type="button" className="nav-about" onClick={() => openSheet(true)} title={withShortcut('Keyboard shortcuts', 'shortcuts')}
          aria-keyshortcuts={ariaKeys('shortcuts')}>Shortcuts</button>
      </div>
    </nav>
  );
}
