import { useSettingsForm } from './useSettingsForm';
import { useEffect, useEffectEvent, useState } from 'react';
import { Add, call, hasBackend, Preview, RegistryURL, Search, SetRegistryURL } from '../backend';
import type { gui } from '../backend';
import { refreshServers } from '../servers';
import { message } from '../errors';
import { ErrorMessage } from './ErrorMessage';

type Server = gui.RegistryServer;

/**
 * moreCursor is the cursor "More results" follows: none after the last
 * page, and none when the registry names a cursor it gave before (it would
 * list the same pages for ever); repeated says which.
 */
export function moreCursor(pages: gui.RegistryList[]): { cursor: string; repeated: boolean } {
  const last = pages[pages.length - 1];
  if (!last?.nextCursor) return { cursor: '', repeated: false };
  const repeated = pages.slice(0, -1).some((p) => p.nextCursor === last.nextCursor);
  return { cursor: repeated ? '' : last.nextCursor, repeated };
}

/**
 * RegistryBrowse is the Servers page's Browse tab: search the MCP Registry,
 * follow its pages, see a server's packages, remotes and variables, Add.
 */
export function RegistryBrowse() {
  const [query, setQuery] = useState('');
  const [pages, setPages] = useState<gui.RegistryList[]>([]);
  const [err, setErr] = useState('');
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState<Server | null>(null);
  const [added, setAdded] = useState('');
  const last = pages[pages.length - 1];
  const search = async (cursor = '') => {
    setBusy(true);
    setErr('');
    try {
      const page = await call(() => Search(query, cursor));
      setPages((cur) => (cursor ? [...cur, page] : [page]));
    } catch (e) {
      setErr(message(e));
    } finally {
      setBusy(false);
    }
  };
  // The first page, once, when the page opens.
  const searchOnOpen = useEffectEvent(() => {
    if (hasBackend()) void search();
  });
  useEffect(() => searchOnOpen(), []);
  const servers = pages.flatMap((p) => p.servers);
  const more = moreCursor(pages);
  return (
    <div className="registry-browse" role="tabpanel" aria-label="Browse the MCP Registry">
      <form className="row" role="search" onSubmit={(e) => { e.preventDefault(); void search(); }}>
        <input type="search" aria-label="Search the registry" placeholder="Search the registry" value={query} onChange={(e) => setQuery(e.target.value)} />
        <button type="submit" disabled={busy}>Search</button>
        {last && <span className="muted small">{last.registry}</span>}
      </form>
      {last?.stale && (
        <ErrorMessage error={last.why} role="status" className="alert" label="Registry offline">Showing the listing fetched {last.age} ago.</ErrorMessage>
      )}
      {err && <ErrorMessage error={err} />}
      {added && <div className="notice" role="status">Added {added}</div>}
      <ul className="registry-list" aria-label="Registry servers">
        {servers.map((s) => (
          <li key={s.name} aria-label={s.name}>
            <div className="row">
              <strong>{s.title || s.name}</strong> <span className="muted">{s.version}</span>
              <span className="muted small">{s.options.map((o) => o.kind).join(', ')}</span>
              <span className="spacer" />
              <button type="button" aria-expanded={open?.name === s.name} onClick={() => setOpen(open?.name === s.name ? null : s)}>Details</button>
            </div>
            <div className="muted small">{s.name} · {s.description}</div>
            {open?.name === s.name && <RegistryDetails server={s} onAdded={(n) => { setAdded(n); setOpen(null); void refreshServers(); }} />}
          </li>
        ))}
      </ul>
      {more.cursor && <button type="button" onClick={() => void search(more.cursor)} disabled={busy}>More results</button>}
      {more.repeated && <p className="muted" role="status">The registry gave a page it had already given, so there are no more results to show.</p>}
      {last && servers.length === 0 && <p className="muted">No server matches. Try a shorter or different word.</p>}
    </div>
  );
}

function RegistryDetails({ server: s, onAdded }: { server: Server; onAdded: (name: string) => void }) {
  const [option, setOption] = useState(0);
  const [values, setValues] = useState<Record<string, string>>({});
  const [err, setErr] = useState('');
  const [busy, setBusy] = useState(false);
  const o = s.options[option];
  const [preview, setPreview] = useState<gui.RegistryPreview | null>(null);
  useEffect(() => {
    if (!hasBackend() || !o) return;
    let live = true;
    const t = setTimeout(() => {
      call(() => Preview(s.name, option, values)).then((p) => { if (live) setPreview(p); }, (e: unknown) => { if (live) setErr(message(e)); });
    }, 250); // after typing pauses
    return () => { live = false; clearTimeout(t); };
  }, [s.name, option, values, o]);
  const add = async () => {
    setBusy(true);
    setErr('');
    try {
      onAdded(await Add(s.name, option, values));
    } catch (e) {
      setErr(message(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="registry-details" aria-label={`Add ${s.name}`} onSubmit={(e) => { e.preventDefault(); void add(); }}>
      <p>{s.description}</p>
      {s.repository && <p className="small">Source: <code>{s.repository}</code></p>}
      {s.options.length === 0 && <div className="alert" role="alert">Nothing here can run on this computer (no npm, PyPI, OCI or MCPB package, no remote).</div>}
      {s.options.length > 1 && (
        <fieldset>
          <legend>Install from</legend>
          {s.options.map((x) => (
            <label key={x.index} className="row"><input type="radio" name={`opt-${s.name}`} checked={option === x.index} onChange={() => setOption(x.index)} /> {x.label}</label>
          ))}
        </fieldset>
      )}
      {o && s.options.length === 1 && <p className="small">Installs from <code>{o.label}</code> (version pinned) as <code>{s.entryName}</code></p>}
      {o?.asks.map((a) => (
        <label key={a.key} className="registry-ask">
          <span>{a.key}{a.required && <span aria-hidden="true"> *</span>} <span className="muted small">({a.kind}) {a.description}</span></span>
          {a.choices.length > 0 ? (
            <select aria-label={a.key} value={values[a.key] ?? a.default} onChange={(e) => setValues({ ...values, [a.key]: e.target.value })}>
              {a.choices.map((c) => <option key={c} value={c}>{c}</option>)}
            </select>
          ) : (
            <input aria-label={a.key} type={a.secret ? 'password' : 'text'} required={a.required && !a.default} placeholder={a.default}
              value={values[a.key] ?? ''} onChange={(e) => setValues({ ...values, [a.key]: e.target.value })} />
          )}
          {a.secret && <span className="muted small">Stored in your OS keyring, never on disk.</span>}
        </label>
      ))}
      {preview && <RunPreview p={preview} entryName={s.entryName} />}
      {err && <div className="alert" role="alert">{err}</div>}
      <div className="row">
        <button type="submit" className="primary" disabled={busy || !o || !!preview?.problem}>{busy ? 'Adding…' : 'Add'}</button>
      </div>
    </form>
  );
}

/** RunPreview shows what Add would run, before anything is added or started: the command line (or URL), and the names of the environment variables and headers it sets; or why it cannot be added. */
function RunPreview({ p, entryName }: { p: gui.RegistryPreview; entryName: string }) {
  if (p.problem) return <div className="alert" role="alert" data-testid="registry-preview-problem">{p.problem}</div>;
  if (p.missing) return <p className="muted small" data-testid="registry-preview">Fill in the required values (*) to see the exact command it will run.</p>;
  return (
    <div className="registry-preview small" data-testid="registry-preview" aria-label="What it will run">
      <p>{p.remote ? 'Connects to' : 'Will run'} <code className="url-full">{p.command}</code> as <code>{entryName}</code></p>
      {p.env.length > 0 && <p>Environment: {p.env.map((n) => <code key={n}>{n} </code>)}</p>}
      {p.headers.length > 0 && <p>Headers: {p.headers.map((n) => <code key={n}>{n} </code>)}</p>}
    </div>
  );
}

/** RegistrySettings: which MCP Registry the Browse tab and 'registry' commands use. */
export function RegistrySettings() {
  const [url, setURL] = useState('');
  const { note, err, edit, save, formRef, standalone } = useSettingsForm(() => RegistryURL(), setURL);
  return (
    <form ref={formRef} className="registry-settings" aria-label="MCP Registry" onSubmit={(e) => { e.preventDefault(); void save(() => SetRegistryURL(url)); }}>
      <label>Registry URL <input type="url" value={url} placeholder="https://registry.modelcontextprotocol.io" onChange={(e) => { edit(); setURL(e.target.value); }} /></label>
      <div className="row">
        {standalone && <button type="submit">Save registry</button>}
        {note && <span className="small muted" role="status">{note}</span>}
      </div>
      {err && <div className="alert" role="alert">{err}</div>}
    </form>
  );
}
