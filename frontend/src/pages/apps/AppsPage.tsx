import { useCallback, useEffect, useRef, useState } from 'react';
import {
  call, ClientApps, ConnectClient, DisconnectClient, EventConfigChanged, hasBackend, hasRuntime, on,
  PreviewConnect, PreviewDisconnect, SetClientServers, type gui, type host,
} from '../../backend';
import { message } from '../../errors';
import { useDismiss } from '../../dismiss';
import './AppsPage.css';

/** Diff shows a change to an app's file, line by line. */
function Diff({ text, label }: { text: string; label: string }) {
  if (!text) return <div className="muted small">The file stays as it is.</div>;
  return (
    <pre className="client-diff" aria-label={label} tabIndex={0}>
      {text.split('\n').map((l, i) => <div key={i} className={l.startsWith('+ ') ? 'add' : l.startsWith('- ') ? 'del' : ''}>{l || ' '}</div>)}
    </pre>
  );
}

/** status is an app's state in a word or two, and its class. */
export function status(a: host.ClientApp): [string, string] {
  const problem = a.files.find((f) => f.problem);
  if (problem) return ['config invalid', 'bad'];
  if (a.broken) return ['needs repair', 'bad'];
  if (a.connected) return ['connected', 'on'];
  return ['not connected', ''];
}

/** when is an RFC 3339 time for people. */
function when(t: string | undefined): string {
  if (!t) return 'never';
  const d = new Date(t);
  return isNaN(d.getTime()) ? t : d.toLocaleString();
}

type Pending = { kind: 'connect'; move: boolean; envDiffers: string; p: gui.ClientPreview } | { kind: 'disconnect'; withSecrets: boolean; ch: host.ClientChange };

/** ServerChoice picks the servers an app sees. */
function ServerChoice({ a, all, builtins, fail, reload }: { a: host.ClientApp; all: string[]; builtins: string[]; fail: (e: string) => void; reload: () => void }) {
  const chosen = a.servers ?? [];
  const every = chosen.length === 0;
  const set = (list: string[]) => call(() => SetClientServers(a.name, list)).then(reload, (x: unknown) => fail(message(x)));
  if (all.length === 0) return <div className="muted small">Switchboard has no servers yet: add some on the Servers page, or connect with “Move its servers here”.</div>;
  return (
    <fieldset className="client-servers-choice">
      <legend className="small">Servers {a.title} sees</legend>
      <label><input type="checkbox" checked={every} onChange={() => set(every ? all.slice(0, 1) : [])} /> All of Switchboard’s servers</label>
      {!every && (
        <div className="client-servers">
          {all.map((s) => (
            <label key={s}><input type="checkbox" checked={chosen.includes(s)}
              onChange={() => { const next = chosen.includes(s) ? chosen.filter((x) => x !== s) : [...chosen, s]; void set(next); }} /> {s}</label>
          ))}
        </div>
      )}
      <div className="muted small">The built-in {builtins.join(' and ')} {builtins.length === 1 ? 'is' : 'are'} always there. A change reaches the app at once: Switchboard tells it its tools, prompts and resources changed (some apps list them only when they start).</div>
    </fieldset>
  );
}

/** AppRow is one app found on this computer. */
function AppRow({ a, view, reload }: { a: host.ClientApp; view: gui.ClientAppsView; reload: () => void }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const [err, setErr] = useState('');
  const [done, setDone] = useState('');
  const [word, cls] = status(a);
  // The preview is a panel of its own: focus moves to it, Escape cancels,
  // and focus returns to the button that opened it (Connect…, Move…,
  // Disconnect…), rendered again in its place.
  const panel = useRef<HTMLDivElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const [openedBy, setOpenedBy] = useState('');
  useDismiss(pending !== null, () => setPending(null), { panel, opener, initial: panel });
  const said = useRef<HTMLDivElement>(null);
  useEffect(() => { if (done) said.current?.focus(); }, [done]);
  const fail = (e: string) => { setErr(e); setDone(''); };
  const preview = (move: boolean, envDiffers = '') => {
    setErr(''); setDone('');
    call(() => PreviewConnect({ name: a.name, move, envDiffers })).then((p) => setPending({ kind: 'connect', move, envDiffers, p }), (x: unknown) => fail(message(x)));
  };
  const previewDisconnect = (withSecrets: boolean) => {
    setErr(''); setDone('');
    call(() => PreviewDisconnect(a.name, withSecrets)).then((ch) => setPending({ kind: 'disconnect', withSecrets, ch }), (x: unknown) => fail(message(x)));
  };
  const apply = () => {
    if (!pending) return;
    const run = pending.kind === 'connect'
      ? call(() => ConnectClient({ name: a.name, move: pending.move, envDiffers: pending.envDiffers })).then((p) => p.change)
      : call(() => DisconnectClient(a.name, pending.withSecrets));
    run.then((ch) => {
      setPending(null);
      setDone(`${pending.kind === 'connect' ? 'Connected' : 'Disconnected'}: ${ch.path} changed${ch.backup ? ` (the previous file is ${ch.backup})` : ''}.${ch.warnings?.length ? ' ' + ch.warnings.join(' ') : ''}`);
      reload();
    }, (x: unknown) => fail(message(x)));
  };
  const problem = a.files.find((f) => f.problem);
  const ch = pending?.kind === 'connect' ? pending.p.change : pending?.ch;
  return (
    <li className="client-app" aria-label={a.title}>
      <div className="client-app-head">
        <span className="client-name">{a.title}</span>
        <span className={`client-status ${cls}`}>{word}</span>
        {a.running && <span className="muted small">running now</span>}
        {a.attached ? <span className="ok small">using Switchboard’s servers now ({a.attached})</span> : null}
        {a.lastConnected || a.calls > 0
          ? <span className="muted small">last connected {when(a.lastConnected)} · {a.calls} {a.calls === 1 ? 'call' : 'calls'}</span>
          : a.connected && <span className="muted small">{a.title} has not used Switchboard yet</span>}
      </div>
      {a.files.map((f) => (
        <div key={f.path} className="muted small"><code>{f.path}</code> ({f.scope}{f.readOnly ? ', read only' : ''}){f.servers ? ` · ${f.servers} ${f.servers === 1 ? 'server' : 'servers'} of its own` : ''}</div>
      ))}
      {problem && <div className="bad small" role="alert">{problem.path} cannot be read: {problem.problem}. Fix the file (or let {a.title} rewrite it), then come back; Switchboard does not change a file it cannot parse.</div>}
      {a.broken && <div className="bad small">Its Switchboard entry is broken: {a.broken}.</div>}
      {!problem && !pending && (
        <div className="client-app-row">
          {(!a.connected || a.broken) && <button type="button" className="primary" ref={openedBy === 'connect' ? opener : undefined}
            onClick={() => { setOpenedBy('connect'); preview(false); }}>{a.broken ? 'Repair…' : 'Connect…'}</button>}
          {a.ownServers > 0 && <button type="button" ref={openedBy === 'move' ? opener : undefined}
            onClick={() => { setOpenedBy('move'); preview(true); }}>{a.connected ? 'Move its servers here…' : 'Connect and move its servers here…'}</button>}
          {a.connected && <button type="button" ref={openedBy === 'disconnect' ? opener : undefined}
            onClick={() => { setOpenedBy('disconnect'); previewDisconnect(true); }}>Disconnect…</button>}
        </div>
      )}
      {pending && ch && (
        <div className="skill-preview" role="region" aria-label={`${pending.kind === 'connect' ? 'Connect' : 'Disconnect'} ${a.title}: preview`} ref={panel} tabIndex={-1}>
          {pending.kind === 'connect' && pending.p.envDiffers?.length ? (
            <>
              <div className="bad small">Switchboard already has {pending.p.envDiffers.join(', ')} with another environment. Use Switchboard’s, or import {a.title}’s as well?</div>
              <div className="client-app-row">
                <button type="button" onClick={() => preview(true, 'keep')}>Use Switchboard’s</button>
                <button type="button" onClick={() => preview(true, 'import')}>Import {a.title}’s too</button>
                <button type="button" onClick={() => setPending(null)}>Cancel</button>
              </div>
            </>
          ) : (
            <>
              <div className="small">{pending.kind === 'connect' ? 'This change' : 'Disconnecting makes this change'} to <code>{ch.path}</code>{pending.kind === 'connect' && ch.command ? <> — {a.title} will run <code>{ch.command}</code></> : null}:</div>
              <Diff text={ch.diff} label={`Change to ${ch.path}`} />
              {(ch.moved ?? []).length > 0 && <div className="small">{pending.kind === 'connect' ? 'Moved into Switchboard (secrets to the keyring)' : 'Returned to the file'}: {ch.moved.join(', ')}</div>}
              {(ch.skipped ?? []).map((s) => <div key={s} className="muted small">{s}</div>)}
              {(ch.warnings ?? []).map((w) => <div key={w} className="bad small">⚠ {w}</div>)}
              {pending.kind === 'connect' && (
                <label className="small"><input type="checkbox" checked={pending.move} disabled={a.ownServers === 0}
                  onChange={() => preview(!pending.move)} /> Move its servers here too ({a.ownServers}): they run once, in Switchboard, for every app</label>
              )}
              {pending.kind === 'disconnect' && (a.moved ?? []).length > 0 && (
                <label className="small"><input type="checkbox" checked={pending.withSecrets}
                  onChange={() => previewDisconnect(!pending.withSecrets)} /> Write the moved servers’ secrets back from the keyring into the file, as {a.title} had them (unticked: left empty, the keyring keeps them)</label>
              )}
              <div className="client-app-row">
                <button type="button" className="primary" disabled={!ch.changed} onClick={apply}>{pending.kind === 'connect' ? (a.broken ? 'Repair' : 'Connect') : 'Disconnect'}</button>
                <button type="button" onClick={() => setPending(null)}>Cancel</button>
              </div>
            </>
          )}
        </div>
      )}
      {err && <div className="bad" role="alert">{err}</div>}
      {done && <div className="ok small" role="status" tabIndex={-1} ref={said}>{done}</div>}
      {a.connected && !a.broken && <ServerChoice a={a} all={view.servers} builtins={view.builtins} fail={fail} reload={reload} />}
    </li>
  );
}

/**
 * AppsPage is Connected apps: the other MCP apps on this computer (Claude
 * Desktop, Claude Code, Cursor, VS Code, …), each pointed at Switchboard's
 * servers after a preview of the change to its file, and the ones not
 * installed.
 */
export function AppsPage() {
  const [view, setView] = useState<gui.ClientAppsView | null>(null);
  const [err, setErr] = useState('');
  const load = useCallback(() => {
    if (!hasBackend()) return;
    call(() => ClientApps()).then((v) => { setView(v); setErr(''); }, (x: unknown) => setErr(message(x)));
  }, []);
  useEffect(() => {
    load();
    const t = window.setInterval(load, 5000); // attached apps and their calls
    const off = hasRuntime() ? on(EventConfigChanged, load) : undefined;
    return () => { window.clearInterval(t); off?.(); };
  }, [load]);
  const found = view?.apps.filter((a) => a.found) ?? [];
  const missing = view?.apps.filter((a) => !a.found) ?? [];
  return (
    <section className="page apps-page" aria-labelledby="page-title">
      <div className="page-head"><h1 id="page-title">Connected apps</h1></div>
      <p className="muted">Other MCP apps on this computer can use Switchboard’s servers instead of starting their own: connecting adds one entry to the app’s file (you see the exact change first), and the app’s own servers can move here so each runs once, with Switchboard’s keyring, sandbox and rules.
        {view && (view.sharing ? ' While Switchboard runs, every connected app shares its servers.' : ' Each connected app’s Switchboard starts the servers itself (another Switchboard shares them now, or none does).')}</p>
      {err && <div className="bad" role="alert">{err} Try again with Refresh; if it persists, the log folder (Help) says more.</div>}
      {!view && !err && <div className="muted">Looking for apps…</div>}
      {view && (
        <>
          <div className="client-app-row"><button type="button" onClick={load}>Refresh</button></div>
          <section aria-label="Apps on this computer">
            <h3>On this computer</h3>
            {found.length === 0
              ? <div className="muted">No MCP app was found for this user. Install one (Claude Desktop, Claude Code, Cursor, VS Code, …) or start it once so it writes its settings, then Refresh.</div>
              : <ul className="client-apps">{found.map((a) => <AppRow key={a.name} a={a} view={view} reload={load} />)}</ul>}
          </section>
          {missing.length > 0 && (
            <section aria-label="Apps not installed">
              <h3>Not found here</h3>
              <ul className="not-installed muted small">{missing.map((a) => <li key={a.name}>{a.title}</li>)}</ul>
            </section>
          )}
        </>
      )}
    </section>
  );
}
