import { useCallback, useEffect, useMemo, useState } from 'react';
import { call, DeleteSecret, hasBackend, KeyringStatus, Secrets, SetSecret } from '../../backend';
import type { host } from '../../backend';
import { message } from '../../errors';
import { Providers } from './Providers';
import { ToolSearchSettings } from './ToolSearchSettings';
import { ToolModeSettings } from './ToolModeSettings';
import { ServeToolsSettings } from './ServeToolsSettings';
import { LongChatSettings } from './LongChatSettings';
import { SamplingSettings } from './SamplingSettings';
import { DownloadSettings } from './DownloadSettings';
import { RegistrySettings } from '../../components/RegistryBrowse';
import { TaskSettings } from './TaskSettings';
import { useConfigVersion } from '../../store';
import { SaveBarContext } from '../../components/saveBar';

type SecretInfo = host.SecretRow;

/** SettingsPage: model providers and the secrets in the OS keyring. */
export function SettingsPage() {
  const [list, setList] = useState<SecretInfo[]>([]);
  const [keyring, setKeyring] = useState('');
  const [err, setErr] = useState('');
  const load = () => {
    if (!hasBackend()) return;
    call(KeyringStatus).then(setKeyring, (e: unknown) => setErr(message(e)));
    call(Secrets).then(setList, (e: unknown) => setErr(message(e)));
  };
  const configVersion = useConfigVersion();
  useEffect(load, [configVersion]);

  return (
    <section className="page settings-page" aria-labelledby="page-title">
      <h1 id="page-title">Settings</h1>
      <p className="muted">Models, chats, servers and secrets. Keys are kept in your OS keyring, never on disk. Approval rules for tools are on the <a href="#/tools">Tools</a> page, each server&apos;s own settings on <a href="#/servers">Servers</a>.</p>
      <SaveBarProvider>
        <div className="settings-layout">
          <SettingsIndex />
          <div className="settings-sections">
            <SettingsSection id="models" title="Models" related={<>Which model a chat uses: the chat&apos;s header. Knowledge stores&apos; embedding model: <a href="#/knowledge">Knowledge</a>.</>}>
              <Providers onChanged={load} />
            </SettingsSection>
            <SettingsSection id="chat" title="Chat" related={<>Which tools a chat may use and the approval rules: <a href="#/tools">Tools</a>. Agents&apos; prompts and tools: <a href="#/agents">Agents</a>.</>}>
              <h3>Tool search</h3>
              <ToolSearchSettings />
              <h3>Code mode</h3>
              <ToolModeSettings />
              <ServeToolsSettings />
              <h3>Long chats</h3>
              <LongChatSettings />
              <h3>Sampling</h3>
              <SamplingSettings />
            </SettingsSection>
            <SettingsSection id="servers" title="Servers" related={<>A server&apos;s command, environment, roots and sandbox: <a href="#/servers">Servers</a>. The folder the model works in: <a href="#/workspace">Workspace</a>.</>}>
              <h3>Package downloads</h3>
              <DownloadSettings />
              <h3>MCP Registry</h3>
              <RegistrySettings />
            </SettingsSection>
            <SettingsSection id="tasks" title="Tasks">
              <TaskSettings />
            </SettingsSection>
            <SettingsSection id="secrets" title="Secrets" related={<>A server uses a secret in its config as <code>{'${secret:NAME}'}</code>: <a href="#/servers">Servers</a>.</>}>
              {keyring && <div className="alert" role="alert">{keyring}</div>}
              {err && <div className="alert" role="alert">{err}</div>}
              <table className="preview secrets" aria-label="Secrets">
                <thead>
                  <tr><th>Name</th><th>Value</th><th>Used by</th><th /></tr>
                </thead>
                <tbody>
                  {list.map((s) => (
                    <SecretRow key={s.name} secret={s} onChange={load} onError={setErr} />
                  ))}
                  {list.length === 0 && (
                    <tr><td colSpan={4} className="muted">No secrets yet. Imported API keys and tokens land here.</td></tr>
                  )}
                </tbody>
              </table>
              <AddSecret onAdded={load} onError={setErr} />
            </SettingsSection>
          </div>
        </div>
      </SaveBarProvider>
    </section>
  );
}

/** SECTIONS are the Settings page's sections, in order, for its index. */
const SECTIONS = [['models', 'Models'], ['chat', 'Chat'], ['servers', 'Servers'], ['tasks', 'Tasks'], ['secrets', 'Secrets']] as const;

/** sectionFromHash is the section a link names after the page (#/settings/secrets), or ''. */
export function sectionFromHash(hash: string): string {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[1] ?? '';
  return SECTIONS.some(([s]) => s === id) ? id : '';
}

/** goToSection scrolls to a section and moves focus to its heading. */
function goToSection(id: string) {
  const h = document.getElementById(`settings-${id}`);
  h?.scrollIntoView?.({ block: 'start' });
  h?.focus({ preventScroll: true });
}

/**
 * SettingsIndex lists the sections; choosing one scrolls to it and moves
 * focus to its heading. A link to a section (#/settings/secrets) does the
 * same, on arrival and while the page is open.
 */
function SettingsIndex() {
  const go = goToSection;
  useEffect(() => {
    const follow = () => {
      const id = sectionFromHash(location.hash);
      if (id) goToSection(id);
    };
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  return (
    <nav className="settings-index" aria-label="Settings sections">
      <ul>
        {SECTIONS.map(([id, title]) => (
          <li key={id}><button type="button" className="link" onClick={() => go(id)}>{title}</button></li>
        ))}
      </ul>
    </nav>
  );
}

/** SettingsSection is one section: its heading (the index's target), where related settings live, and its forms. */
function SettingsSection({ id, title, related, children }: { id: string; title: string; related?: React.ReactNode; children: React.ReactNode }) {
  return (
    <section className="settings-section" aria-labelledby={`settings-${id}`}>
      <h2 id={`settings-${id}`} tabIndex={-1}>{title}</h2>
      {related && <p className="muted small related">Elsewhere: {related}</p>}
      {children}
    </section>
  );
}

/**
 * SaveBarProvider gives the settings forms one Save: a bar at the foot of
 * the window while any has unsaved edits, naming them, with Save changes
 * (each form saves and says so beside its fields) and Discard.
 */
function SaveBarProvider({ children }: { children: React.ReactNode }) {
  const [dirty, setDirty] = useState<ReadonlyMap<string, { name: string; submit: () => void }>>(new Map());
  const [discarded, setDiscarded] = useState(0);
  const set = useCallback((id: string, name: string, submit: (() => void) | null) => {
    setDirty((d) => {
      if (!submit && !d.has(id)) return d;
      const next = new Map(d);
      if (submit) next.set(id, { name, submit });
      else next.delete(id);
      return next;
    });
  }, []);
  const bar = useMemo(() => ({ set, discarded }), [set, discarded]);
  const names = [...new Set([...dirty.values()].map((f) => f.name).filter(Boolean))];
  return (
    <SaveBarContext.Provider value={bar}>
      {children}
      {dirty.size > 0 && (
        <div className="save-bar" role="region" aria-label="Unsaved changes">
          <span>Unsaved changes in {names.join(', ')}</span>
          <button type="button" className="primary" onClick={() => { for (const f of dirty.values()) f.submit(); }}>Save changes</button>
          <button type="button" onClick={() => { setDirty(new Map()); setDiscarded((n) => n + 1); }}>Discard</button>
        </div>
      )}
    </SaveBarContext.Provider>
  );
}

function SecretRow({ secret: s, onChange, onError }: { secret: SecretInfo; onChange: () => void; onError: (e: string) => void }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState('');
  const [confirm, setConfirm] = useState(false);
  const save = async () => {
    try {
      await SetSecret(s.name, value);
      setEditing(false);
      setValue('');
      onChange();
    } catch (e) {
      onError(message(e));
    }
  };
  return (
    <tr aria-label={s.name}>
      <td><code>{s.name}</code></td>
      <td>
        {editing ? (
          <input type="password" aria-label={`New value for ${s.name}`} value={value} autoFocus onChange={(e) => setValue(e.target.value)}
            onKeyDown={(e) => e.key === 'Enter' && void save()} />
        ) : (
          <span className="masked">{s.masked}</span>
        )}
      </td>
      <td className="muted">{s.usedBy.join(', ')}</td>
      <td className="row-actions">
        {editing ? (
          <>
            <button type="button" className="primary" onClick={() => void save()} disabled={!value}>Save</button>
            <button type="button" onClick={() => setEditing(false)}>Cancel</button>
          </>
        ) : confirm ? (
          <span role="alertdialog" aria-label={`Delete ${s.name}?`}>
            Delete?{' '}
            <button type="button" className="danger" autoFocus onClick={() => DeleteSecret(s.name).then(onChange, (e: unknown) => onError(message(e)))}>Delete</button>{' '}
            <button type="button" onClick={() => setConfirm(false)}>Cancel</button>
          </span>
        ) : (
          <>
            <button type="button" onClick={() => setEditing(true)}>Replace</button>{' '}
            <button type="button" onClick={() => setConfirm(true)}>Delete</button>
          </>
        )}
      </td>
    </tr>
  );
}

function AddSecret({ onAdded, onError }: { onAdded: () => void; onError: (e: string) => void }) {
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const add = async (e: React.FormEvent) => {
    e.preventDefault();
    try {
      await SetSecret(name.trim(), value);
      setName('');
      setValue('');
      onAdded();
    } catch (err) {
      onError(message(err));
    }
  };
  return (
    <form className="add-secret" onSubmit={(e) => void add(e)} aria-label="Add a secret">
      <label>
        Name <input value={name} onChange={(e) => setName(e.target.value)} placeholder="OPENAI_API_KEY" />
      </label>
      <label>
        Value <input type="password" value={value} onChange={(e) => setValue(e.target.value)} autoComplete="off" />
      </label>
      <button type="submit" className="primary" disabled={!name.trim() || !value}>Add secret</button>
      <span className="muted small">Use it in a server config as <code>{'${secret:NAME}'}</code>.</span>
    </form>
  );
}
