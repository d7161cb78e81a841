import { useSettingsForm } from './useSettingsForm';
import { useEffect, useEffectEvent, useState } from 'react';
import { Add, call, hasBackend, InspectBundle, Preview, RegistryURL, Search, SetRegistryURL } from '../backend';
import type { gui, host } from '../backend';
import { problems, startValues } from '../bundles';
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

/** uniqueServers: the servers of every page, each name once (a registry may list another version of one on a later page). */
export function uniqueServers(pages: gui.RegistryList[]): Server[] {
  const seen = new Set<string>();
  return pages.flatMap((p) => p.servers).filter((s) => !seen.has(s.name) && !!seen.add(s.name));
}

/** askStart: a form's first values, each ask's default (editable); a secret's stays empty, its default shown as the placeholder. */
export function askStart(asks: host.RegistryAsk[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of asks) if (a.default && !a.secret) out[a.key] = a.default;
  return out;
}

/**
 * choiceBlank is the empty first entry of a choice without a default, so
 * the list never looks filled when nothing is picked: "Choose…" for a
 * required one, "(not set)" for an optional one; null for one with a
 * default.
 */
export function choiceBlank(a: host.RegistryAsk): string | null {
  if (a.default) return null;
  return a.required ? 'Choose…' : '(not set)';
}

/** StatusMark: what the registry says of a server that is not simply active. */
function StatusMark({ status }: { status: string }) {
  if (status === 'deprecated') return <span className="badge badge-starting" title="Its publisher no longer recommends it">deprecated</span>;
  if (status === 'deleted') return <span className="badge badge-error" title="Taken down by the registry: it cannot be added">deleted</span>;
  return null;
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
  const [added, setAdded] = useState<gui.RegistryAdded | null>(null);
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
  const servers = uniqueServers(pages);
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
      {added && <div className="notice" role="status">Added {added.name}{added.warning && <span className="small">: {added.warning}</span>}</div>}
      <ul className="registry-list" aria-label="Registry servers">
        {servers.map((s) => (
          <li key={s.name} aria-label={s.name}>
            <div className="row">
              <strong>{s.title || s.name}</strong> <span className="muted">{s.version}</span>
              <StatusMark status={s.status} />
              <span className="muted small">{s.options.map((o) => o.kind).join(', ')}</span>
              <span className="spacer" />
              <button type="button" aria-expanded={open?.name === s.name} onClick={() => setOpen(open?.name === s.name ? null : s)}>Details</button>
            </div>
            <div className="muted small">{s.name} · {s.description}</div>
            {open?.name === s.name && <RegistryDetails server={s} onAdded={(a) => { setAdded(a); setOpen(null); void refreshServers(); }} />}
          </li>
        ))}
      </ul>
      {more.cursor && <button type="button" onClick={() => void search(more.cursor)} disabled={busy}>More results</button>}
      {more.repeated && <p className="muted" role="status">The registry gave a page it had already given, so there are no more results to show.</p>}
      {last && servers.length === 0 && <p className="muted">No server matches. Try a shorter or different word.</p>}
    </div>
  );
}

/** nonEmpty: a bundle form's answers without its empty fields. */
function nonEmpty(values: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(values)) {
    const keep = v.filter((x) => x !== '');
    if (keep.length > 0) out[k] = keep;
  }
  return out;
}

function RegistryDetails({ server: s, onAdded }: { server: Server; onAdded: (a: gui.RegistryAdded) => void }) {
  const [option, setOption] = useState(0);
  const o = s.options[option];
  const [values, setValues] = useState<Record<string, string>>(() => askStart(o?.asks ?? []));
  const [name, setName] = useState(s.entryName);
  const [err, setErr] = useState('');
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<gui.RegistryPreview | null>(null);
  const [form, setForm] = useState<gui.BundleForm | null>(null);
  const [formValues, setFormValues] = useState<Record<string, string[]>>({});
  const deleted = s.status === 'deleted';
  const isBundle = o?.kind === 'mcpb';
  const choose = (i: number) => {
    setOption(i);
    setValues(askStart(s.options[i]?.asks ?? []));
    setPreview(null);
    setErr('');
  };
  // An mcpb package: download it (checked) to show its own form.
  useEffect(() => {
    setForm(null);
    if (!hasBackend() || !isBundle || deleted) return;
    let live = true;
    call(() => InspectBundle(s.name, option)).then(
      (f) => { if (live) { setForm(f); setFormValues(startValues(f)); } },
      (e: unknown) => { if (live) setErr(message(e)); },
    );
    return () => { live = false; };
  }, [s.name, option, isBundle, deleted]);
  const entryName = name.trim() === s.entryName ? '' : name.trim();
  useEffect(() => {
    if (!hasBackend() || !o || isBundle || deleted) return;
    let live = true;
    const t = setTimeout(() => {
      call(() => Preview({ name: s.name, option, values, bundle: {}, entryName })).then((p) => { if (live) setPreview(p); }, (e: unknown) => { if (live) setErr(message(e)); });
    }, 250); // after typing pauses
    return () => { live = false; clearTimeout(t); };
  }, [s.name, option, values, o, isBundle, deleted, entryName]);
  const add = async () => {
    if (form) {
      const p = problems(form, formValues);
      if (p.length > 0) {
        setErr(p.join('; '));
        return;
      }
    }
    setBusy(true);
    setErr('');
    try {
      onAdded(await Add(isBundle
        ? { name: s.name, option, values: {}, bundle: nonEmpty(formValues), entryName: '' }
        : { name: s.name, option, values, bundle: {}, entryName }));
    } catch (e) {
      setErr(message(e));
    } finally {
      setBusy(false);
    }
  };
  const blocked = !!form && (!!form.refused || form.signed === 'invalid' || form.incompatible !== '' || form.installed !== '');
  return (
    <form className="registry-details" aria-label={`Add ${s.name}`} onSubmit={(e) => { e.preventDefault(); void add(); }}>
      <p>{s.description}</p>
      {s.repository && <p className="small">Source: <code>{s.repository}</code></p>}
      {s.status === 'deprecated' && <div className="alert" role="note">Deprecated in the registry: its publisher no longer recommends it (its description may name what to use instead). You can still add it.</div>}
      {deleted && <div className="alert" role="alert">Deleted from the registry, which takes down servers found malicious or broken, or withdrawn by their publisher: Switchboard does not add it.</div>}
      {s.options.length === 0 && <div className="alert" role="alert">Nothing here can run on this computer: {s.unsupported}.</div>}
      {s.options.length > 1 && (
        <fieldset>
          <legend>Install from</legend>
          {s.options.map((x) => (
            <label key={x.index} className="row"><input type="radio" name={`opt-${s.name}`} checked={option === x.index} onChange={() => choose(x.index)} /> {x.label}</label>
          ))}
        </fieldset>
      )}
      {o && s.options.length === 1 && <p className="small">Installs from <code>{o.label}</code> (version pinned)</p>}
      {o && !isBundle && (
        <label className="registry-ask">
          <span>Name <span className="muted small">(the server&apos;s name here; it prefixes its tools, name__tool)</span></span>
          <input aria-label="Server name" required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
      )}
      {!isBundle && o?.asks.map((a) => <AskField key={a.key} ask={a} value={values[a.key] ?? ''} onChange={(v) => setValues({ ...values, [a.key]: v })} />)}
      {isBundle && !deleted && <BundleFields form={form} values={formValues} setValues={setFormValues} url={o.label.split(' ')[1] ?? ''} />}
      {preview && !isBundle && <RunPreview p={preview} entryName={name.trim()} />}
      {err && <div className="alert" role="alert">{err}</div>}
      <div className="row">
        <button type="submit" className="primary" disabled={busy || !o || deleted || !!preview?.problem || (isBundle && (!form || blocked))}>{busy ? 'Adding…' : 'Add'}</button>
      </div>
    </form>
  );
}

/** AskField is one value the server takes: a list for a choice (with an empty first entry when it has no default), else a text field prefilled with its default. */
function AskField({ ask: a, value, onChange }: { ask: host.RegistryAsk; value: string; onChange: (v: string) => void }) {
  const blank = choiceBlank(a);
  return (
    <label className="registry-ask">
      <span>{a.key}{a.required && <span aria-hidden="true"> *</span>} <span className="muted small">({a.kind}{a.required ? '' : ', optional'}) {a.description}</span></span>
      {a.choices.length > 0 ? (
        <select aria-label={a.key} required={a.required} value={value} onChange={(e) => onChange(e.target.value)}>
          {blank !== null && <option value="" disabled={a.required}>{blank}</option>}
          {a.choices.map((c) => <option key={c} value={c}>{c}</option>)}
        </select>
      ) : (
        <input aria-label={a.key} type={a.secret ? 'password' : 'text'} required={a.required && !a.default} placeholder={a.secret ? a.default : ''}
          value={value} onChange={(e) => onChange(e.target.value)} />
      )}
      {a.secret && <span className="muted small">Stored in your OS keyring, never on disk.</span>}
    </label>
  );
}

/** BundleFields: an mcpb package's own form once downloaded and checked: who signed it, the name it installs as, and its settings (user_config). */
function BundleFields({ form, values, setValues, url }: { form: gui.BundleForm | null; values: Record<string, string[]>; setValues: (f: (cur: Record<string, string[]>) => Record<string, string[]>) => void; url: string }) {
  if (!form) return <p className="muted small" role="status">Downloading the bundle to read its settings…</p>;
  const set = (key: string, i: number, v: string) => setValues((cur) => {
    const next = [...(cur[key] ?? [''])];
    next[i] = v;
    return { ...cur, [key]: next };
  });
  return (
    <div className="registry-bundle">
      <div className="registry-preview small" data-testid="registry-preview" aria-label="What it will install">
        <p>Downloads <code className="url-full">{url}</code>, checks it against the registry&apos;s SHA-256 and installs the bundle {form.displayName} {form.version} as <code>{form.name}</code></p>
        <p className={`bundle-signature signed-${form.signed}`}>{form.signature}</p>
      </div>
      {form.refused && <div className="alert" role="alert">{form.refused}</div>}
      {form.signed === 'invalid' && <div className="alert" role="alert">Switchboard does not install a bundle whose signature does not match it.</div>}
      {form.incompatible && <div className="alert" role="alert">{form.incompatible}</div>}
      {form.installed && <div className="alert" role="alert">A server named {form.name} is already installed: adding from the registry never replaces one. Remove it first, or update it from its own .mcpb file.</div>}
      {form.options.map((o) => (
        <fieldset key={o.key} className="registry-ask">
          <legend>{o.title}{o.required && <span aria-hidden="true"> *</span>} {o.description && <span className="muted small">{o.description}</span>}</legend>
          {(values[o.key] ?? ['']).map((v, i) => (
            o.type === 'boolean' ? (
              <label key={i}><input type="checkbox" checked={v === 'true'} onChange={(e) => set(o.key, i, e.target.checked ? 'true' : 'false')} /> {o.title}</label>
            ) : (
              <input key={i} aria-label={o.multiple ? `${o.title} ${i + 1}` : o.title} required={o.required && i === 0}
                type={o.sensitive ? 'password' : o.type === 'number' ? 'number' : 'text'}
                placeholder={o.type === 'directory' ? 'folder path' : o.type === 'file' ? 'file path' : ''}
                value={v} onChange={(e) => set(o.key, i, e.target.value)} />
            )
          ))}
          {o.multiple && <button type="button" onClick={() => setValues((cur) => ({ ...cur, [o.key]: [...(cur[o.key] ?? []), ''] }))}>Add another</button>}
          {o.sensitive && <span className="muted small">Stored in your OS keyring, never on disk.</span>}
        </fieldset>
      ))}
    </div>
  );
}

/** RunPreview shows what Add would run, before anything is added or started: the command line (or URL), and the names of the environment variables and headers it sets; or why it cannot be added. */
function RunPreview({ p, entryName }: { p: gui.RegistryPreview; entryName: string }) {
  if (p.problem) return <div className="alert" role="alert" data-testid="registry-preview-problem">{p.problem}</div>;
  if (p.missing) return <p className="muted small" data-testid="registry-preview">Fill in {p.fill.join(', ')} (*) to see the exact command it will run.</p>;
  return (
    <div className="registry-preview small" data-testid="registry-preview" aria-label="What it will run">
      <p>{p.remote ? 'Connects to' : 'Will run'} <code className="url-full">{p.command}</code> as <code>{p.name || entryName}</code></p>
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
