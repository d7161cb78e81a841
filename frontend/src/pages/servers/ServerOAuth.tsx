import { useEffect, useId, useState } from 'react';
import { call, hasBackend, ServerOAuth, SetServerOAuth } from '../../backend';
import type { gui } from '../../backend';
import { refreshServers, type ServerView } from '../../servers';
import { message } from '../../errors';
import './ServerOAuth.css';

/** parsePort reads the redirect port as typed: "" is any free port (0). */
export function parsePort(text: string): { port: number; error: string } {
  const t = text.trim();
  if (t === '') return { port: 0, error: '' };
  const n = Number(t);
  if (!Number.isInteger(n) || n < 1 || n > 65535) {
    return { port: 0, error: 'Redirect port must be a whole number from 1 to 65535, or empty for any free port.' };
  }
  return { port: n, error: '' };
}

/** scopeList splits scopes typed with spaces or commas between them. */
export function scopeList(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

/**
 * ServerOAuthForm edits, under a remote server's Details, the OAuth client
 * Switchboard logs in as ("oauth" in its entry), for authorization servers
 * that refuse to let it register itself. The secret goes to the keyring and
 * never comes back to the window. onSaved runs after a save (the row drops
 * a login error the new client may fix).
 */
export function ServerOAuthForm({ server: s, onSaved }: { server: ServerView; onSaved?: () => void }) {
  const id = useId();
  const [view, setView] = useState<gui.OAuthView | null>(null);
  const [clientId, setClientId] = useState('');
  const [secret, setSecret] = useState('');
  const [removeSecret, setRemoveSecret] = useState(false);
  const [port, setPort] = useState('');
  const [scopes, setScopes] = useState('');
  const [err, setErr] = useState('');
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (!hasBackend()) return;
    call(() => ServerOAuth(s.name)).then((v) => {
      setView(v);
      setClientId(v.clientId);
      setPort(v.redirectPort ? String(v.redirectPort) : '');
      setScopes((v.scopes ?? []).join(' '));
    }, (e: unknown) => setErr(message(e)));
  }, [s.name]);
  if (!view) return err ? <div className="alert" role="alert">{err}</div> : null;
  if (!view.remote) return null; // a local server gets its credentials as env values
  const save = async () => {
    setErr('');
    setSaved(false);
    const p = parsePort(port);
    if (p.error) {
      setErr(p.error);
      return;
    }
    try {
      await call(() => SetServerOAuth(s.name, {
        ...view, clientId: clientId.trim(), clientSecret: secret, removeSecret, redirectPort: p.port, scopes: scopeList(scopes),
      }));
      const hasSecret = secret !== '' || (view.hasSecret && !removeSecret);
      setView({ ...view, hasSecret });
      setSecret('');
      setRemoveSecret(false);
      await refreshServers();
      setSaved(true);
      onSaved?.();
    } catch (e) {
      setErr(message(e));
    }
  };
  return (
    <form className="card oauth-form" aria-label={`OAuth client of ${s.name}`} onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <h3 className="oauth-title">OAuth client</h3>
      <p className="muted small" id={`${id}-help`}>
        Leave empty and Switchboard registers itself when you log in. If the server&apos;s authorization server refuses that,
        register Switchboard there with the redirect URI <code>http://127.0.0.1:PORT/callback</code> and enter the client it gives you.
      </p>
      <label>
        Client ID
        <input value={clientId} autoComplete="off" spellCheck={false} aria-describedby={`${id}-help`} onChange={(e) => setClientId(e.target.value)} />
      </label>
      <label>
        Client secret {view.hasSecret ? '(stored in the keyring; type a new one to replace it)' : '(only for a confidential client)'}
        <input type="password" value={secret} autoComplete="new-password" disabled={removeSecret}
          placeholder={view.hasSecret ? '••••••••' : ''} onChange={(e) => setSecret(e.target.value)} />
      </label>
      {view.hasSecret && (
        <label className="row">
          <input type="checkbox" checked={removeSecret} onChange={(e) => { setRemoveSecret(e.target.checked); setSecret(''); }} />
          Remove the stored secret (a public client)
        </label>
      )}
      <div className="oauth-pair">
        <label>
          Redirect port
          <input inputMode="numeric" value={port} placeholder="any free port" onChange={(e) => setPort(e.target.value)} />
        </label>
        <label>
          Scopes (when the server names none)
          <input value={scopes} spellCheck={false} placeholder="read write" onChange={(e) => setScopes(e.target.value)} />
        </label>
      </div>
      {err && <div className="alert" role="alert">{err}</div>}
      {saved && <span className="muted small" role="status">Saved; the server restarts, and its next login uses this client.</span>}
      <div className="row">
        <button type="submit" className="primary">Save OAuth client</button>
      </div>
    </form>
  );
}
