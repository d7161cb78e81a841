import { useEffect, useId, useState } from 'react';
import { call, hasBackend, ServerSandbox, SetServerSandbox } from '../../backend';
import type { gui } from '../../backend';
import { refreshServers, type ServerView } from '../../servers';
import { message } from '../../errors';

/** SandboxBadge marks a server row whose server runs in a sandbox. */
export function SandboxBadge({ server: s }: { server: ServerView }) {
  if (!s.sandboxed) return null;
  return (
    <span className="badge badge-sandbox" title="Runs in a sandbox: your home folder, keys and the network are out of its reach unless its Details allow them">
      sandboxed
    </span>
  );
}

/** lines turns a textarea's text into a list of folders, one per line. */
export function lines(text: string): string[] {
  return text.split('\n').map((l) => l.trim()).filter(Boolean);
}

/**
 * ServerSandboxForm edits a server's sandbox under Details: on or off,
 * network, the folders it may read and write, and how it sees its roots.
 * Saving restarts the server in (or out of) its sandbox.
 */
export function ServerSandboxForm({ server: s }: { server: ServerView }) {
  const id = useId();
  const [view, setView] = useState<gui.SandboxView | null>(null);
  const [enabled, setEnabled] = useState(false);
  const [network, setNetwork] = useState(false);
  const [read, setRead] = useState('');
  const [write, setWrite] = useState('');
  const [roots, setRoots] = useState('read');
  const [err, setErr] = useState('');
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (!hasBackend()) return;
    call(() => ServerSandbox(s.name)).then((v) => {
      setView(v);
      setEnabled(v.enabled);
      setNetwork(v.network);
      setRead((v.allowRead ?? []).join('\n'));
      setWrite((v.allowWrite ?? []).join('\n'));
      setRoots(v.roots || 'read');
    }, (e: unknown) => setErr(message(e)));
  }, [s.name]);
  if (!view) return err ? <div className="alert" role="alert">{err}</div> : null;
  if (!view.local) {
    return <p className="muted small">Sandbox: only a local (stdio) server runs in a sandbox; this one is reached over the network.</p>;
  }
  const save = async () => {
    setErr('');
    setSaved(false);
    try {
      await call(() => SetServerSandbox(s.name, { ...view, enabled, network, allowRead: lines(read), allowWrite: lines(write), roots }));
      await refreshServers();
      setSaved(true);
    } catch (e) {
      setErr(message(e));
    }
  };
  return (
    <form className="card sandbox-form" aria-label={`Sandbox of ${s.name}`} onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <h3 className="sandbox-title">Sandbox</h3>
      <label className="row">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        Run in a sandbox
      </label>
      <p className="muted small" id={`${id}-help`}>
        The server sees the system and its own program read-only, an empty private home and temp folder, and only the folders listed here — not your home folder, keys, browser profiles or the keyring. Without a sandbox a server can read every Switchboard secret in the keyring.
      </p>
      {enabled && view.unavailable && <div className="alert" role="alert">{view.unavailable}. Until then the server does not start.</div>}
      <fieldset disabled={!enabled} aria-describedby={`${id}-help`}>
        <label className="row">
          <input type="checkbox" checked={network} onChange={(e) => setNetwork(e.target.checked)} />
          Network (off: it cannot reach the internet or this computer's ports)
        </label>
        <label>
          Folders it may read (one per line, full path or ~/…)
          <textarea rows={2} value={read} placeholder="~/notes" onChange={(e) => setRead(e.target.value)} />
        </label>
        <label>
          Folders it may read and write
          <textarea rows={2} value={write} placeholder="/srv/data" onChange={(e) => setWrite(e.target.value)} />
        </label>
        <label>
          Its roots (workspace folders)
          <select value={roots} onChange={(e) => setRoots(e.target.value)}>
            <option value="read">read only</option>
            <option value="write">read and write (what it writes there, the workspace shell may later run)</option>
            <option value="none">hidden</option>
          </select>
        </label>
      </fieldset>
      {err && <div className="alert" role="alert">{err}</div>}
      {saved && <span className="muted small" role="status">Saved; the server restarts {enabled ? 'in its sandbox' : 'without a sandbox'}.</span>}
      <div className="row">
        <button type="submit" className="primary">Save sandbox</button>
      </div>
    </form>
  );
}
