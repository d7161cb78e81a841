import { useState } from 'react';
import { call, SetServerLogLevel, SetServerRoots } from '../../backend';
import { refreshServers, type ServerView } from '../../servers';
import { message } from '../../errors';
import { logLevels } from './ServerLogView';

/** ROOTS_CHOICES are the roots a user can choose for a server, in the order shown. */
const ROOTS_CHOICES: { mode: string; label: string }[] = [
  { mode: 'auto', label: 'Automatic: its configured folders, else the workspace' },
  { mode: 'configured', label: 'Only the folders in its arguments' },
  { mode: 'workspace', label: 'The workspace' },
  { mode: 'both', label: 'Its folders and the workspace' },
  { mode: 'list', label: 'These folders…' },
  { mode: 'none', label: 'None' },
];

/** rootsWhy says in words which rule chose a server's roots. */
export function rootsWhy(s: Pick<ServerView, 'rootsRule' | 'rootsMode' | 'configuredFolders'>): string {
  const auto = s.rootsMode === 'auto' || !s.rootsMode;
  switch (s.rootsRule) {
    case 'configured':
      return auto ? 'the folders named in its arguments (it was set up for them)' : 'only the folders named in its arguments';
    case 'workspace':
      return auto ? 'the workspace (its arguments name no folder)' : 'the workspace (chosen)';
    case 'both':
      return 'the folders named in its arguments and the workspace';
    case 'list':
      return 'the folders listed in its entry';
    case 'none':
      return 'none (chosen)';
    default:
      return 'the folders it is offered';
  }
}

/**
 * ServerProtocol shows, in a server's Details, what the MCP client offers
 * it: its roots (and which rule chose them, with a choice) and, when it
 * offers logging, the level of the log messages it sends (logging/setLevel).
 */
export function ServerProtocol({ server: s }: { server: ServerView }) {
  const [err, setErr] = useState('');
  const roots = s.roots ?? [];
  const listed = s.rootsRule === 'list';
  const [mode, setMode] = useState(listed ? 'list' : s.rootsMode || 'auto');
  const [list, setList] = useState(listed ? roots.join('\n') : '');
  const [saved, setSaved] = useState('');
  const builtin = s.transport === 'built-in';
  const save = (m: string, folders: string[]) => {
    setErr('');
    setSaved('');
    call(() => SetServerRoots(s.name, m, folders)).then(
      () => { setSaved('Saved: the server is told its new roots.'); void refreshServers(); },
      (x: unknown) => setErr(message(x)),
    );
  };
  return (
    <div className="card small" role="group" aria-label={`Protocol of ${s.name}`}>
      <div>
        <strong>Roots</strong>{' '}
        <span className="muted">(folders the server may work in{s.rootsRule ? `: ${rootsWhy(s)}` : ''})</span>
        <ul aria-label={`Roots of ${s.name}`}>
          {roots.length ? roots.map((r) => <li key={r}><code>{r}</code></li>) : <li className="muted">none</li>}
        </ul>
        {!builtin && (
          <div className="roots-choice">
            <label>
              Offer as roots{' '}
              <select aria-label={`Roots choice of ${s.name}`} value={mode}
                onChange={(e) => {
                  const m = e.target.value;
                  setMode(m);
                  if (m !== 'list') save(m, []);
                }}>
                {ROOTS_CHOICES.map((c) => <option key={c.mode} value={c.mode}>{c.label}</option>)}
              </select>
            </label>
            {mode === 'list' && (
              <form onSubmit={(e) => { e.preventDefault(); save('list', list.split('\n')); }}>
                <label>
                  Folders, one per line
                  <textarea aria-label={`Root folders of ${s.name}`} rows={3} value={list} onChange={(e) => setList(e.target.value)}
                    placeholder={(s.configuredFolders ?? [])[0] ?? '/home/me/projects'} />
                </label>
                <button type="submit" disabled={!list.trim()}>Save roots</button>
              </form>
            )}
            {saved && <span className="muted" role="status">{saved}</span>}
          </div>
        )}
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
