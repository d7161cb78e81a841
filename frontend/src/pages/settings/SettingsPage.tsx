import { useEffect, useState } from 'react';
import { call, DeleteSecret, hasBackend, KeyringStatus, Secrets, SetSecret } from '../../backend';
import type { host } from '../../backend';
import { message } from '../../errors';
import { Providers } from './Providers';
import { ToolSearchSettings } from './ToolSearchSettings';
import { ToolModeSettings } from './ToolModeSettings';
import { LongChatSettings } from './LongChatSettings';
import { SamplingSettings } from './SamplingSettings';
import { DownloadSettings } from './DownloadSettings';
import { RegistrySettings } from '../../components/RegistryBrowse';
import { TaskSettings } from './TaskSettings';
import { useConfigVersion } from '../../store';

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
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Settings</h1>
      <p className="muted">Model providers, API keys and the approval policy for tools. Keys are kept in your OS keyring, never on disk.</p>
      <h2>Model providers</h2>
      <Providers onChanged={load} />
      <h2>Tool search</h2>
      <ToolSearchSettings />
      <h2>Code mode</h2>
      <ToolModeSettings />
      <h2>Chat</h2>
      <h3>Long chats</h3>
      <LongChatSettings />
      <h3>Sampling</h3>
      <SamplingSettings />
      <h2>Servers</h2>
      <DownloadSettings />
      <RegistrySettings />
      <h2>Tasks</h2>
      <TaskSettings />
      <h2>Secrets</h2>
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
    </section>
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
