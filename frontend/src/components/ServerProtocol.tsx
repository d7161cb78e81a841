import { useState } from 'react';
import { SetServerLogLevel } from '../../wailsjs/go/app/ServersPage';
import { call } from '../backend';
import { message, refreshServers, type ServerView } from '../servers';
import { logLevels } from './ServerLogView';

/**
 * ServerProtocol shows, in a server's Details, what the MCP client offers
 * it: its roots (the workspace folder unless its entry has "roots") and,
 * when it offers logging, the level of the log messages it sends
 * (logging/setLevel).
 */
export function ServerProtocol({ server: s }: { server: ServerView }) {
  const [err, setErr] = useState('');
  const roots = s.roots ?? [];
  return (
    <div className="card small" role="group" aria-label={`Protocol of ${s.name}`}>
      <div>
        <strong>Roots</strong>{' '}
        <span className="muted">(folders the server may work in; set "roots" in its entry to change them, otherwise the workspace)</span>
        <ul aria-label={`Roots of ${s.name}`}>
          {roots.length ? roots.map((r) => <li key={r}><code>{r}</code></li>) : <li className="muted">none</li>}
        </ul>
      </div>
      <label>
        Log level{' '}
        <select aria-label={`Log level of ${s.name}`} value={s.logLevel} disabled={!s.logging}
          onChange={(e) => {
            setErr('');
            call(() => SetServerLogLevel(s.name, e.target.value)).then(() => refreshServers(), (x: unknown) => setErr(message(x)));
          }}>
          <option value="" disabled>{s.logging ? "server's default" : 'server does not offer logging'}</option>
          {logLevels.map((l) => <option key={l} value={l}>{l}</option>)}
        </select>
      </label>
      {err && <span className="bad" role="alert">{err}</span>}
    </div>
  );
}
