import icon from '../assets/icon.svg';
import { versionLabel } from '../backend';
import { PAGES } from '../pages';
import { store, useStore } from '../store';
import { welcome } from '../welcome';
import { NavIcon } from './NavIcon';

const isMac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform);

/** Nav is the left navigation: one link per page, the app's version at the foot. */
export function Nav() {
  const page = useStore((s) => s.page);
  const info = useStore((s) => s.info);
  const backendError = useStore((s) => s.backendError);

  return (
    <nav className="nav" aria-label="Main">
      <div className="brand">
        <img src={icon} alt="" width={28} height={28} />
        <span>Switchboard</span>
      </div>
      <ul>
        {PAGES.map((p, i) => (
          <li key={p.id}>
            <a
              href={`#/${p.id}`}
              aria-current={page === p.id ? 'page' : undefined}
              aria-keyshortcuts={`${isMac ? 'Meta' : 'Control'}+${i + 1}`}
              title={`${p.title} (${isMac ? '⌘' : 'Ctrl+'}${i + 1})`}
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
      <button type="button" className="nav-about" onClick={() => void welcome.showAbout()}>About Switchboard</button>
    </nav>
  );
}
