import { useEffect, useRef, useState, type RefObject } from 'react';
import { firstClick, useDismiss } from '../../dismiss';
import { call, GrantSecret, RefusedSecrets, ServerSecrets } from '../../backend';
import { refreshServers, removeServer } from '../../servers';
import { loadAgents, useAgents } from '../../agents';
import { message } from '../../errors';

/**
 * RemoveConfirm asks before a server is removed. When the server keeps
 * secrets in the keyring, a checkbox (ticked by default) deletes them too,
 * so a new server of the same name starts without them.
 */
export function RemoveConfirm({ name, onCancel, onError, opener }: {
  name: string; onCancel: () => void; onError: (e: string) => void;
  /** opener is the control that asked: focus returns there on Cancel or Esc. */
  opener?: RefObject<HTMLElement | null>;
}) {
  // Focus starts on Cancel (Enter-Enter does not remove), Esc cancels.
  const panel = useRef<HTMLDivElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useDismiss(true, onCancel, { panel, opener, initial: cancel });
  const [secrets, setSecrets] = useState<string[]>([]);
  const [forget, setForget] = useState(true);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    call(() => ServerSecrets(name)).then((s) => setSecrets(s ?? []), () => setSecrets([]));
  }, [name]);
  // The agents that name it: the remove takes it out of them (a server added later under this name gets none of their grants).
  const users = useAgents().agents.filter((a) => a.servers.includes(name)).map((a) => a.name);
  const remove = async () => {
    setBusy(true);
    try {
      await removeServer(name, forget && secrets.length > 0);
      void loadAgents();
    } catch (e) {
      onError(message(e));
      setBusy(false);
    }
  };
  const n = secrets.length;
  return (
    <div className="confirm" role="alertdialog" aria-label={`Remove ${name}?`} ref={panel}>
      <span>Remove <strong>{name}</strong> from your servers? Its config entry is deleted (a backup stays in config.json.bak).</span>
      {users.length > 0 && <span className="small" role="note">It is taken out of the {users.length === 1 ? 'agent' : 'agents'} {users.join(', ')} too.</span>}
      {n > 0 && (
        <label className="confirm-option" title={secrets.join(', ')}>
          <input type="checkbox" checked={forget} onChange={(e) => setForget(e.target.checked)} />
          {' '}Also delete its {n === 1 ? 'secret' : `${n} secrets`} from the keyring
        </label>
      )}
      <button type="button" ref={cancel} onClick={onCancel} disabled={busy}>Cancel</button>
      <button type="button" className="danger" disabled={busy} onClick={firstClick(() => void remove())}>Remove</button>
    </div>
  );
}

/**
 * RefusedSecrets lists the keyring secrets a server names that are not its
 * own (they came with an import, a registry entry or a bundle), each with
 * a Grant button: the server may use it only once the user says so.
 */
export function RefusedSecretsLine({ name, error }: { name: string; error: string }) {
  const [refused, setRefused] = useState<string[]>([]);
  const [err, setErr] = useState('');
  useEffect(() => {
    if (!error) { setRefused([]); return; }
    call(() => RefusedSecrets(name)).then((r) => setRefused(r ?? []), () => setRefused([]));
  }, [name, error]);
  if (refused.length === 0) return null;
  const grant = async (secret: string) => {
    try {
      await call(() => GrantSecret(secret, name));
      setRefused((r) => r.filter((x) => x !== secret));
      await refreshServers();
    } catch (e) {
      setErr(message(e));
    }
  };
  return (
    <div className="server-grants" role="group" aria-label={`Secrets ${name} may not use yet`}>
      {refused.map((s) => (
        <p key={s} className="small">
          {name} names the keyring secret <code>{s}</code>, which is not its own.{' '}
          <button type="button" className="small-btn" onClick={() => void grant(s)}>Grant {s} to {name}</button>
        </p>
      ))}
      <p className="muted small">Only a sandboxed server is kept from the keyring: one that runs without a sandbox can read every Switchboard secret there itself.</p>
      {err && <p className="field-problem">{err}</p>}
    </div>
  );
}
