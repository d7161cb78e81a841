import { useEffect, useRef, useState } from 'react';
import { call, TestServer } from '../../backend';
import type { host } from '../../backend';
import { message } from '../../errors';
import { ErrorMessage, splitError } from '../../components/ErrorMessage';
import { count } from '../../plural';

/**
 * useTestConnection runs a test connection: the server starts on its own,
 * opens the connection (server/discover or initialize) and runs tools/list, and the report shows each step's time or
 * what failed. It returns the button (for the row's head), the report, and
 * says(error): whether the report shows that error's sentence now (the row
 * then does not say it a second time). The report says each sentence once:
 * the failed step's row says "failed", the sentence follows the table.
 */
export function useTestConnection(name: string, command = ''): { button: React.JSX.Element; report: React.JSX.Element | null; says: (error: string) => boolean } {
  const [busy, setBusy] = useState(false);
  const [probe, setProbe] = useState<host.TestReport | null>(null);
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
  // The report appears below the row's head, often below the fold: bring it
  // into view when the test starts and again when its result is in.
  const ref = useRef<HTMLDivElement>(null);
  const phase = busy ? 'busy' : probe || err ? 'done' : '';
  useEffect(() => {
    if (phase) ref.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [phase]);
  const button = <button type="button" onClick={() => void run()} disabled={busy}>{busy ? 'Testing…' : 'Test connection'}</button>;
  const report = !(probe || err || busy) ? null : (
        <div ref={ref} className={`probe ${probe?.ok ? 'ok' : probe ? 'bad' : ''}`} role="status" aria-label={`Test of ${name}`} aria-busy={busy}>
          {busy && <span className="muted">Starting {name} on its own, then server/discover or initialize, and tools/list…{downloads(command) && ' (a first npx or uvx run downloads the package)'}</span>}
          {err && <ErrorMessage error={err} />}
          {probe && (
            <>
              <strong>{probe.ok ? `Connected in ${fmt(probe.totalMs)}` : `Failed at ${probe.failed}`}</strong>
              {probe.ok && <span className="muted small"> {probe.serverName} {probe.version} over {probe.transport}, protocol {probe.protocol}</span>}
              {probe.ok && <div className="probe-summary">{probe.summary || count(probe.tools.length, 'tool')}</div>}
              <table className="probe-steps">
                <tbody>
                  {probe.steps.map((s) => (
                    <tr key={s.name} className={s.error ? 'bad' : ''}>
                      <th scope="row">{s.name}</th>
                      <td>{fmt(s.ms)}</td>
                      <td>{s.error ? 'failed' : 'ok'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {!probe.ok && <ErrorMessage error={probe.error} role="status" className="server-error" />}
              {!probe.ok && probe.stderr.length > 0 && <pre className="log">{probe.stderr.join('\n')}</pre>}
            </>
          )}
        </div>
  );
  const shown = probe && !probe.ok ? probe.error : err;
  const says = (error: string) => !!error && !!shown && shown.split('\n').includes(splitError(error).sentence);
  return { button, report, says };
}

/** downloads is whether a stdio command is npx or uvx (or bunx, pnpm dlx…), whose first run fetches the package. */
export function downloads(command: string): boolean {
  const first = command.trim().split(/\s+/)[0] ?? '';
  const prog = (first.split(/[\\/]/).pop() ?? '').replace(/\.(cmd|exe)$/i, '').toLowerCase();
  return prog === 'npx' || prog === 'uvx' || prog === 'bunx' || (prog === 'pnpm' && /\sdlx\s/.test(` ${command} `));
}

function fmt(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}
