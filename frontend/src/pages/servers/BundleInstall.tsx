import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { call, Choose, DiscardBundle, hasMethod, InspectFile, InspectPath, Install, InstallChanged, PreviewBundle } from '../../backend';
import { BundleChanges } from './BundleChanges';
import type { gui } from '../../backend';
import { refreshServers } from '../../servers';
import { message } from '../../errors';
import { useWelcome } from '../../welcome';

import { confirming, installable, isBundle, problems, startValues } from '../../bundles';

type Form = gui.BundleForm;
type Option = gui.BundleOption;

async function readBase64(file: File): Promise<string> {
  const buf = new Uint8Array(await file.arrayBuffer());
  let s = '';
  for (let i = 0; i < buf.length; i += 0x8000) s += String.fromCharCode(...buf.subarray(i, i + 0x8000));
  return btoa(s);
}

/** discard tells the Go side a form's bundle will not be installed (a dropped file is removed). */
function discard(token: string) {
  if (token && hasMethod('Bundles', 'DiscardBundle')) void call(() => DiscardBundle(token)).catch(() => undefined);
}

/**
 * BundleInstall installs MCP Bundles (.mcpb) on the Servers page: dropped
 * on the page, chosen with "Install bundle…", or opened with Switchboard.
 * It shows who made and signed the bundle, the tools it declares, a form
 * made from its user_config and the command it will run with the form's
 * values; a bundle that cannot be installed says why at once. A form that
 * is closed, replaced by another or left (the page changes) lets its
 * dropped file go.
 */
export function BundleInstall() {
  const [form, setForm] = useState<Form | null>(null);
  const [values, setValues] = useState<Record<string, string[]>>({});
  const [err, setErr] = useState('');
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const opened = useWelcome((s) => s.opened);
  const taken = useRef(0);
  const shown = useRef(''); // the token of the form on screen

  const close = () => {
    discard(shown.current);
    shown.current = '';
    setForm(null);
  };
  const show = (f: Form) => {
    if (shown.current !== f.token) discard(shown.current);
    shown.current = f.token;
    setForm(f);
    setValues(startValues(f));
    setErr('');
    setDone('');
  };
  // Leaving the page lets the form's dropped file go.
  useEffect(() => () => discard(shown.current), []);
  const inspectFile = async (file: File) => {
    if (!isBundle(file.name)) {
      setErr(`${file.name} is not an MCP Bundle (.mcpb)`);
      return;
    }
    try {
      show(await call(async () => InspectFile(file.name, await readBase64(file))));
    } catch (e) {
      close();
      setErr(message(e));
    }
  };

  // Files opened with Switchboard while this page is up (or before).
  useEffect(() => {
    const fresh = opened.slice(taken.current).filter(isBundle);
    taken.current = opened.length;
    const last = fresh[fresh.length - 1];
    if (last) call(() => InspectPath(last)).then(show, (e: unknown) => setErr(message(e)));
  }, [opened]);

  // A file dropped anywhere on the page.
  const dropped = useEffectEvent((file: File) => { void inspectFile(file); });
  useEffect(() => {
    const over = (e: DragEvent) => {
      if (!e.dataTransfer?.types.includes('Files')) return;
      e.preventDefault();
      setDragging(true);
    };
    const leave = (e: DragEvent) => {
      if (e.relatedTarget === null) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      const file = e.dataTransfer?.files[0];
      if (!file) return;
      e.preventDefault();
      setDragging(false);
      dropped(file);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);

  const set = (key: string, i: number, v: string) => setValues((cur) => {
    const next = [...(cur[key] ?? [''])];
    next[i] = v;
    return { ...cur, [key]: next };
  });
  const choose = async (o: Option) => {
    try {
      const picked = await Choose(o.type, o.multiple);
      if (picked.length === 0) return;
      setValues((cur) => ({ ...cur, [o.key]: o.multiple ? [...(cur[o.key] ?? []).filter((x) => x !== ''), ...picked] : picked }));
    } catch (e) {
      setErr(message(e));
    }
  };
  const install = async () => {
    if (!form) return;
    const p = problems(form, values);
    if (p.length > 0) {
      setErr(p.join('; '));
      return;
    }
    setBusy(true);
    setErr('');
    try {
      // A form listing changes was confirmed by its own button.
      const name = await (confirming(form) ? InstallChanged : Install)(form.token, values);
      setDone(`Installed ${name} ${form.version}`);
      shown.current = ''; // installed: the Go side let its file go
      setForm(null);
      await refreshServers();
    } catch (e) {
      setErr(message(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="bundle-install">
      <div className={`bundle-drop${dragging ? ' dragging' : ''}`}>
        <span className="muted small">Drop an MCP Bundle (.mcpb) here, or</span>
        <button type="button" onClick={() => input.current?.click()}>Install bundle…</button>
        <input ref={input} type="file" accept=".mcpb,.dxt" hidden aria-label="Bundle file"
          onChange={(e) => { const f = e.target.files?.[0]; e.target.value = ''; if (f) void inspectFile(f); }} />
      </div>
      {done && <div className="notice" role="status">{done}</div>}
      {err && !form && <div className="alert" role="alert">{err}</div>}
      {form && (
        <form className="bundle-form" noValidate aria-label={`Install ${form.displayName}`} onSubmit={(e) => { e.preventDefault(); void install(); }}>
          <div className="bundle-head">
            {form.icon && <img src={form.icon} alt="" width={40} height={40} />}
            <div>
              <h2>{form.displayName} <span className="muted">{form.version}</span></h2>
              <div className="muted small">by {form.author} · installs as <code>{form.name}</code>{form.installed && ` · replaces ${form.installed}`}</div>
            </div>
          </div>
          <p>{form.description}</p>
          <p className={`bundle-signature signed-${form.signed}`} role="note" aria-label="Signature">{form.signature}</p>
          {form.refused && <div className="alert" role="alert">Switchboard does not install this bundle: {form.refused}</div>}
          {form.signed === 'invalid' && <div className="alert" role="alert">Switchboard does not install a bundle whose signature does not match it: get it again from its publisher.</div>}
          {form.incompatible && <div className="alert" role="alert">{form.incompatible}</div>}
          {form.warnings.map((w) => <p key={w} className="notice small" role="note">{w}</p>)}
          <BundleTools tools={form.toolInfo} />
          {form.signed !== 'invalid' && <BundleChanges changes={form.changes} />}
          {form.options.map((o) => (
            <fieldset key={o.key} className="bundle-option">
              <legend>{o.title}{o.required && <span aria-hidden="true"> *</span>}</legend>
              {o.description && <p className="muted small" id={`opt-${o.key}-help`}>{o.description}</p>}
              {(values[o.key] ?? ['']).map((v, i) => (
                <div className="row" key={i}>
                  {o.type === 'boolean' ? (
                    <label><input type="checkbox" checked={v === 'true'} onChange={(e) => set(o.key, i, e.target.checked ? 'true' : 'false')} /> {o.title}</label>
                  ) : (
                    <input aria-label={o.multiple ? `${o.title} ${i + 1}` : o.title} aria-describedby={o.description ? `opt-${o.key}-help` : undefined}
                      required={o.required && !o.kept && i === 0}
                      type={o.sensitive ? 'password' : o.type === 'number' ? 'number' : 'text'}
                      min={o.hasMin ? o.min : undefined} max={o.hasMax ? o.max : undefined}
                      placeholder={o.kept ? 'kept in the keyring (leave empty to keep)' : o.type === 'directory' ? 'folder path' : o.type === 'file' ? 'file path' : ''}
                      value={v} onChange={(e) => set(o.key, i, e.target.value)} />
                  )}
                  {o.multiple && (values[o.key] ?? []).length > 1 && (
                    <button type="button" aria-label={`Remove ${o.title} ${i + 1}`} onClick={() => setValues((cur) => ({ ...cur, [o.key]: (cur[o.key] ?? []).filter((_, j) => j !== i) }))}>Remove</button>
                  )}
                </div>
              ))}
              <div className="row">
                {(o.type === 'directory' || o.type === 'file') && (
                  <button type="button" onClick={() => void choose(o)}>Choose {o.type === 'directory' ? 'folder' : 'file'}…</button>
                )}
                {o.multiple && <button type="button" onClick={() => setValues((cur) => ({ ...cur, [o.key]: [...(cur[o.key] ?? []), ''] }))}>Add another</button>}
                {o.sensitive && <span className="muted small">Stored in your OS keyring, never on disk.</span>}
              </div>
            </fieldset>
          ))}
          {installable(form) && <BundleRun form={form} values={values} />}
          {err && <div className="alert" role="alert">{err}</div>}
          <div className="row">
            <button type="submit" className={confirming(form) ? 'danger' : 'primary'} disabled={busy || !installable(form)}>
              {busy ? 'Installing…' : confirming(form) ? 'Install anyway' : form.installed ? 'Reinstall' : 'Install'}
            </button>
            <button type="button" onClick={() => { close(); setErr(''); }}>Cancel</button>
          </div>
        </form>
      )}
    </div>
  );
}

/** BundleTools lists the tools a bundle's manifest declares (what the server says it offers, before it runs). */
export function BundleTools({ tools }: { tools: gui.BundleTool[] }) {
  if (tools.length === 0) return null;
  return (
    <section className="bundle-tools small" aria-label="Declared tools">
      <h3>Tools it declares ({tools.length})</h3>
      <ul>
        {tools.map((t) => <li key={t.name}><code>{t.name}</code>{t.description && <span className="muted"> — {t.description}</span>}</li>)}
      </ul>
    </section>
  );
}

/** BundleRun shows what Install would run with the form's values, asked again after typing pauses: the command line and the environment variables it sets, or what is missing or wrong. */
function BundleRun({ form, values }: { form: Form; values: Record<string, string[]> }) {
  const [preview, setPreview] = useState<gui.BundlePreview | null>(null);
  useEffect(() => {
    if (!hasMethod('Bundles', 'PreviewBundle')) return;
    let live = true;
    const t = setTimeout(() => {
      call(() => PreviewBundle(form.token, values)).then((p) => { if (live) setPreview(p); }, () => { if (live) setPreview(null); });
    }, 250); // after typing pauses
    return () => { live = false; clearTimeout(t); };
  }, [form.token, values]);
  if (!preview) return null;
  if (preview.problem) return <p className="muted small" data-testid="bundle-preview">{preview.problem}</p>;
  if (preview.missing) return <p className="muted small" data-testid="bundle-preview">Fill in the required values (*) to see the exact command it will run.</p>;
  return (
    <div className="bundle-preview small" data-testid="bundle-preview" aria-label="What it will run">
      <p>Will run <code className="url-full">{preview.command}</code> as <code>{form.name}</code></p>
      {preview.env.length > 0 && <p>Environment: {preview.env.map((n) => <code key={n}>{n} </code>)}</p>}
    </div>
  );
}

/** BundleLine: what a server's row shows of the bundle it was installed from. */
export function BundleLine({ bundle: b }: { bundle: gui.BundleInfoView }) {
  return (
    <div className="bundle-line small" aria-label="Bundle">
      {b.icon && <img src={b.icon} alt="" width={20} height={20} />}
      <strong>{b.displayName}</strong> <span>{b.version}</span> <span className="muted">by {b.author}</span>
      <span className={`muted signed-${b.signed}`}> · {b.signature}</span>
    </div>
  );
}
