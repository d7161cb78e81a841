import { useEffect, useRef, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { call, CancelLogin, EventServerLogin, hasBackend, LoginServer, on, Profiles, SetProfile } from '../../backend';
import { ImportWizard } from '../../components/ImportWizard';
import { ServerMetaForm, ServerMetaLine } from './ServerMeta';
import { LogTail } from './ServerLogView';
import { ServerProtocol } from './ServerProtocol';
import { ServerSkills } from './ServerSkills';
import { SandboxBadge, ServerSandboxForm } from './ServerSandbox';
import { ServerOAuthForm } from './ServerOAuth';
import { ServerSafety } from '../../components/ToolSafety';
import { refreshSafety } from '../../safety';
import { StatusBadge } from '../../components/StatusBadge';
import { Icon, ServerIcon } from '../../components/Icon';
import { TemplatePicker } from './TemplatePicker';
import { useTestConnection } from './TestConnection';
import { allTags, attentionFirst, filterServers, needsAttention, refreshServers, restartServer, setServerEnabled, useServers, type ServerView } from '../../servers';
import { useMenu } from '../../dismiss';
import { message } from '../../errors';
import { ExternalLink } from '../../components/ExternalLink';
import { InstallProgress } from './InstallProgress';
import { BundleInstall, BundleLine } from './BundleInstall';
import { RegistryBrowse } from '../../components/RegistryBrowse';
import { ServerEditor } from './ServerEditor';
import { useAction } from '../../components/useAction';
import { useConfigFile } from './ConfigFile';
import { RefusedSecretsLine, RemoveConfirm } from './RemoveConfirm';
import { ariaKeys, takeImport, useRequests, withShortcut } from '../../shortcuts';
import { count } from '../../plural';

/** ServersPage lists every configured server with its live status; search and tags narrow the list. */
export function ServersPage() {
  const { servers, configError, loaded, error } = useServers();
  const [importing, setImporting] = useState(false);
  const [adding, setAdding] = useState(false);
  const [browsing, setBrowsing] = useState(false);
  const [creating, setCreating] = useState(false);
  const configFile = useConfigFile();
  const [query, setQuery] = useState('');
  const [tag, setTag] = useState('');
  const [attentionOnly, setAttentionOnly] = useState(false);
  const importButton = useRef<HTMLButtonElement>(null);
  const tags = allTags(servers);
  const attention = servers.filter(needsAttention);
  // Servers in trouble first (and, asked so, only they): at eighteen servers an error is not found by scrolling.
  const shown = attentionFirst(filterServers(attentionOnly && attention.length > 0 ? attention : servers, query, tag));
  useEffect(() => { void refreshSafety(); }, []);
  // File → Import (Ctrl+I) opens the import here.
  const importAsked = useRequests((r) => r.importAsked);
  useEffect(() => { if (importAsked) { setImporting(true); takeImport(); } }, [importAsked]);
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-head">
        <h1 id="page-title">Servers</h1>
        <div className="row">
          <ProfileSwitch />
          <button type="button" aria-pressed={browsing} onClick={() => setBrowsing(!browsing)} disabled={!hasBackend()}>Browse registry</button>
          {hasBackend() && configFile.button}
          <button type="button" onClick={() => setCreating(true)} disabled={creating || !hasBackend()}>Add server…</button>
          <button type="button" onClick={() => setAdding(true)} disabled={adding || !hasBackend()}>Add from template…</button>
          <button type="button" ref={importButton} className="primary" onClick={() => setImporting(true)} disabled={importing}
            title={withShortcut('Import servers', 'import')} aria-keyshortcuts={ariaKeys('import')}>Import…</button>
        </div>
      </div>
      {configFile.line}
      {creating && <ServerEditor onClose={() => setCreating(false)} />}
      {importing && <ImportWizard onClose={() => setImporting(false)} opener={importButton} onServersPage />}
      {adding && <TemplatePicker onClose={() => setAdding(false)} />}
      {hasBackend() && <BundleInstall />}
      {browsing && <RegistryBrowse />}
      {servers.length > 0 && (
        <div className="server-filters row">
          <input type="search" aria-label="Search servers" placeholder="Search servers" value={query} onChange={(e) => setQuery(e.target.value)} />
          {tags.length > 0 && (
            <div className="row" role="group" aria-label="Filter by tag">
              <button type="button" className="chip" aria-pressed={tag === ''} onClick={() => setTag('')}>All</button>
              {tags.map((t) => (
                <button key={t} type="button" className="chip" aria-pressed={tag === t} onClick={() => setTag(tag === t ? '' : t)}>{t}</button>
              ))}
            </div>
          )}
          <span className="muted small" aria-live="polite">{shown.length} of {servers.length}</span>
        </div>
      )}
      {attention.length > 0 && (
        <p className="attention-summary row" role="status">
          {/* The icon is part of the text, which wraps: never a line of its own at 720 px. */}
          <span className="attention-text"><Icon name="warning" size={16} /><strong>{attention.length === 1 ? '1 server needs' : `${attention.length} servers need`} attention</strong>{' '}
            <span className="muted small">(listed first: {attention.map((a) => a.name).join(', ')})</span></span>
          <button type="button" className="chip" aria-pressed={attentionOnly} onClick={() => setAttentionOnly(!attentionOnly)}>
            {attentionOnly ? 'Show all servers' : 'Show only these'}
          </button>
        </p>
      )}
      {configError && (
        <div className="alert" role="alert">
          <strong>config.json could not be loaded.</strong> Fix it and restart Switchboard.
          <pre>{configError}</pre>
        </div>
      )}
      {error && <div className="alert" role="alert">{error}</div>}
      {loaded && servers.length === 0 && !configError && (
        <div className="placeholder">
          <p>No servers yet. Press Import… and paste the <code>mcpServers</code> JSON you already use in Claude Desktop, Cursor or VS Code (or run <code>switchboard servers import FILE</code>).</p>
        </div>
      )}
      <ul className="server-list" aria-label="Servers">
        {shown.map((s) => (
          <ServerRow key={s.name} server={s} />
        ))}
      </ul>
      {servers.length > 0 && shown.length === 0 && <p className="muted">No server matches. <button type="button" className="link" onClick={() => { setQuery(''); setTag(''); setAttentionOnly(false); }}>Show all</button></p>}
    </section>
  );
}

function ServerRow({ server: s }: { server: ServerView }) {
  const { busy, err, setErr, act } = useAction();
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);
  const [editingEntry, setEditingEntry] = useState(false);
  const test = useTestConnection(s.name, s.transport === 'stdio' ? s.command : '');
  // A login the user cancelled ends without an error of its own.
  const cancelled = useRef(false);
  const login = act('login', async () => {
    cancelled.current = false;
    try {
      await LoginServer(s.name);
    } catch (e) {
      if (!cancelled.current) throw e;
    }
  });
  const disabled = s.state === 'disabled';
  const needsLogin = s.state === 'needs-login';
  const builtin = s.transport === 'built-in';
  return (
    <li className="server-row" aria-label={s.name} style={s.meta?.color ? { borderLeft: `4px solid ${s.meta.color}` } : undefined}>
      <div className="server-head">
        <StatusBadge state={s.state} />
        {s.meta?.icon && <span aria-hidden="true">{s.meta.icon}</span>}
        <ServerIcon src={s.icon} />
        <span className="server-name">{s.name}</span>
        <span className="muted">{s.transport}</span>
        <SandboxBadge server={s} />
        {s.state === 'ready' && <span className="muted">{count(s.toolCount, 'tool')}</span>}
        {s.restarts > 0 && <span className="muted">{count(s.restarts, 'restart')}</span>}
        <span className="spacer" />
        {(needsLogin || busy === 'login') && (
          <button type="button" className="login" onClick={login} disabled={busy !== ''}>
            {busy === 'login' ? 'Logging in…' : 'Log in'}
          </button>
        )}
        {!builtin && (
          <div className="server-actions" role="group" aria-label={`Actions for ${s.name}`}>
            {test.button}
            <button type="button" className={s.error ? 'primary' : undefined} onClick={() => setEditingEntry(true)} disabled={editingEntry}
              aria-label={s.error ? `Edit ${s.name} to fix this` : undefined}>Edit</button>
            <button type="button" onClick={act('restart', () => restartServer(s.name))} disabled={busy !== '' || disabled}>
              {busy === 'restart' ? 'Restarting…' : 'Restart'}
            </button>
            <button type="button" onClick={act('toggle', () => setServerEnabled(s.name, disabled))} disabled={busy !== ''}>
              {disabled ? 'Enable' : 'Disable'}
            </button>
            <MoreActions name={s.name} details={editing} onDetails={() => setEditing(!editing)} onRemove={() => setConfirming(true)} removeDisabled={busy !== '' || confirming} />
          </div>
        )}
      </div>
      {confirming && <RemoveConfirm name={s.name} onCancel={() => setConfirming(false)} onError={setErr} />}
      {busy === 'login' && <LoginWait name={s.name} onCancel={() => { cancelled.current = true; }} />}
      <ServerMetaLine server={s} />
      <ServerSafety server={s.name} />
      {editingEntry && <ServerEditor name={s.name} onClose={() => setEditingEntry(false)} />}
      {editing && <ServerMetaForm server={s} onDone={() => setEditing(false)} />}
      {editing && <ServerSandboxForm server={s} />}
      {editing && <ServerOAuthForm server={s} onSaved={() => setErr('')} />}
      {editing && <ServerProtocol server={s} />}
      {editing && <ServerSkills server={s} />}
      {test.report}
      <div className="server-cmd"><code>{s.command}</code></div>
      {s.state === 'installing' && <InstallProgress server={s} />}
      {s.bundle && <BundleLine bundle={s.bundle} />}
      {/* The test's report just above says the same sentence: once is enough. The head's Edit fixes it. */}
      {s.error && (builtin || editingEntry || !test.says(s.error)) && (
        <ErrorMessage error={s.error} role="status" className="server-error" label={`Error of ${s.name}`} />
      )}
      {!builtin && <RefusedSecretsLine name={s.name} error={s.error} />}
      {err && <div className="alert" role="alert">{err}</div>}
      <LogTail name={s.name} initial={s.stderrTail} />
    </li>
  );
}

/**
 * MoreActions is a server card's "⋯": the rarely used actions (Details,
 * Remove…), so Remove is not a neighbour of Disable. Esc or a press outside
 * closes it; focus returns to the button.
 */
function MoreActions({ name, details, onDetails, onRemove, removeDisabled }: {
  name: string; details: boolean; onDetails: () => void; onRemove: () => void; removeDisabled: boolean;
}) {
  const { open, setOpen, anchor, pop } = useMenu();
  const pick = (f: () => void) => () => { setOpen(false); f(); };
  return (
    <span className="server-more">
      <button type="button" ref={anchor} className="icon-button" aria-label={`More actions for ${name}`} title="More actions"
        aria-expanded={open} aria-haspopup="true" onClick={() => setOpen(!open)}>
        <Icon name="more" size={18} />
      </button>
      {open && (
        <div ref={pop} className="popover server-menu" role="group" aria-label={`More actions for ${name}`}>
          <button type="button" aria-pressed={details} onClick={pick(onDetails)}>{details ? 'Hide details' : 'Details'}</button>
          <button type="button" className="danger-text" onClick={pick(onRemove)} disabled={removeDisabled}>Remove…</button>
        </div>
      )}
    </span>
  );
}

/** ProfileSwitch switches every server to a profile (work, home, ...) in one place. */
function ProfileSwitch() {
  const [view, setView] = useState<{ active: string; names: string[] }>({ active: '', names: [] });
  const [err, setErr] = useState('');
  const { profiles } = useServers();
  const load = () => call(() => Profiles()).then(setView, () => undefined);
  useEffect(() => {
    if (hasBackend()) void load(); // again whenever a server's profiles change
  }, [profiles]);
  if (view.names.length === 0) return null;
  return (
    <label className="small profile-switch">
      Profile
      <select aria-label="Profile" value={view.active} onChange={(e) => {
        setErr('');
        call(() => SetProfile(e.target.value)).then(() => Promise.all([load(), refreshServers()]), (x: unknown) => setErr(message(x)));
      }}>
        <option value="">none (as written)</option>
        {view.names.map((n) => <option key={n} value={n}>{n}</option>)}
      </select>
      {err && <span className="bad" role="alert">{err}</span>}
    </label>
  );
}

/**
 * LoginWait says a login is waiting for the browser, offers the login
 * page as a link (from the "server:login" event) in case no browser opened,
 * and Cancel, which ends the login (the row's Log in then comes back).
 */
function LoginWait({ name, onCancel }: { name: string; onCancel: () => void }) {
  const [url, setUrl] = useState('');
  const [cancelling, setCancelling] = useState(false);
  useEffect(
    () =>
      on(EventServerLogin, (v) => {
        if (v.name === name) setUrl(v.url);
      }),
    [name],
  );
  const cancel = () => {
    setCancelling(true);
    onCancel();
    call(() => CancelLogin(name)).catch(() => setCancelling(false));
  };
  return (
    <div className="alert alert-soft" role="status" aria-label={`Login to ${name}`}>
      Finish the login in your browser; Switchboard continues by itself once it is done.
      {url && (
        <>
          {' '}No browser opened? <ExternalLink href={url}>Open the login page</ExternalLink>.
        </>
      )}
      {' '}
      <button type="button" onClick={cancel} disabled={cancelling} aria-label={`Cancel the login to ${name}`}>Cancel</button>
    </div>
  );
}
