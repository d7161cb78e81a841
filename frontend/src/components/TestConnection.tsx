import { useState } from 'react';
import { TestServer } from '../../wailsjs/go/app/ServersPage';
import type { mcpmanager } from '../../wailsjs/go/models';
import { call } from '../backend';
import { message } from '../servers';

/**
 * useTestConnection runs a test connection: the server starts on its own,
 * runs initialize and tools/list, and the report shows each step's time or
 * what failed. It returns the button (for the row's head) and the report.
 */
export function useTestConnection(name: string): { button: React.JSX.Element; report: React.JSX.Element | null } {
  const [busy, setBusy] = useState(false);
  const [probe, setProbe] = useState<mcpmanager.TestReport | null>(null);
  const [err, setErr] = useState('');
  const run = async () => {
    setBusy(true);
    setErr('');
    setProbe(null);
    try {
      setProbe(await call(() => TestServer(name)));
    } catch (e) {
      setErr(message(e));
    } finally {
      setBusy(false);
    }
  };
  const button = <button type="button" onClick={() => void run()} disabled={busy}>{busy ? 'Testing…' : 'Test connection'}</button>;
  const report = !(probe || err || busy) ? null : (
        <div className={`probe ${probe?.ok ? 'ok' : probe ? 'bad' : ''}`} role="status" aria-label={`Test of ${name}`}>
          {busy && <span className="muted">Starting {name} on its own…</span>}
          {err && <span className="bad">{err}</span>}
          {probe && (
            <>
              <strong>{probe.ok ? `Connected in ${fmt(probe.totalMs)}` : `Failed at ${probe.failed}`}</strong>
              {probe.ok && <span className="muted small"> {probe.serverName} {probe.version} over {probe.transport}, protocol {probe.protocol}, {probe.tools.length} tools</span>}
              <table className="probe-steps">
                <tbody>
                  {probe.steps.map((s) => (
                    <tr key={s.name} className={s.error ? 'bad' : ''}>
                      <th scope="row">{s.name}</th>
                      <td>{fmt(s.ms)}</td>
                      <td>{s.error ? s.error.split('\n')[0] : 'ok'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {!probe.ok && <pre className="server-error">{probe.error}</pre>}
              {!probe.ok && probe.stderr.length > 0 && <pre className="log">{probe.stderr.join('\n')}</pre>}
            </>
          )}
        </div>
  );
  return { button, report };
}

function fmt(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}
