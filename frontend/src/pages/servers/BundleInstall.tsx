import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { call, Choose, InspectFile, InspectPath, Install, InstallChanged } from '../../backend';
import { BundleChanges } from './BundleChanges';
import type { gui } from '../../backend';
import { refreshServers } from '../../servers';
import { message } from '../../errors';
import { useWelcome } from '../../welcome';

type Form = gui.BundleForm;
type Option = gui.BundleOption;

/** isBundle: a file name an MCP Bundle has. */
export function isBundle(name: string): boolean {
  return /\.(mcpb|dxt)$/i.test(name);
}

/** startValues: the form's first values, one empty field for a multiple option without any. */
export function startValues(f: Form): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const o of f.options) out[o.key] = o.values.length > 0 ? [...o.values] : [''];
  return out;
}

/** confirming: the form lists differences from the installed copy, so its button confirms them ("Install anyway"). */
export function confirming(f: Form): boolean {
  return f.signed !== 'invalid' && f.changes.length > 0;
}

/** problems: what the form would refuse before asking the Go side (required, min/max). */
export function problems(f: Form, values: Record<string, string[]>): string[] {
  const out: string[] = [];
  for (const o of f.options) {
    const v = (values[o.key] ?? []).filter((x) => x !== '');
    if (o.required && v.length === 0 && !o.kept) out.push(`${o.title} is required`);
    if (o.type === 'number') {
      for (const x of v) {
        const n = Number(x);
        if (Number.isNaN(n)) out.push(`${o.title}: ${x} is not a number`);
        else if ((o.hasMin && n < o.min) || (o.hasMax && n > o.max)) out.push(`${o.title}: ${x} is outside ${o.hasMin ? o.min : '…'}–${o.hasMax ? o.max : '…'}`);
      }
    }
  }
  return out;
}

async function readBase64(file: File): Promise<string> {
  const buf = new Uint8Array(await file.arrayBuffer());
  let s = '';
  for (let i = 0; i < buf.length; i += 0x8000) s += String.fromCharCode(...buf.subarray(i, i + 0x8000));
  return btoa(s);
}

/**
 * BundleInstall installs MCP Bundles (.mcpb) on the Servers page: dropped
 * on the page, chosen with "Install bundle…", or opened with Switchboard.
 * It shows who made and signed the bundle and a form made from its
 * user_config.
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

  const show = (f: Form) => {
    setForm(f);
    setValues(startValues(f));
    setErr('');
    setDone('');
  };
  const inspectFile = async (file: File) => {
    if (!isBundle(file.name)) {
      setErr(`${file.name} is not an MCP Bundle (.mcpb)`);
      return;
    }
    try {
      show(await call(async () => InspectFile(file.name, await readBase64(file))));
    } catch (e) {
      setForm(null);
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
          {form.signed === 'invalid' && <div className="alert" role="alert">Switchboard does not install a bundle whose signature does not match it: get it again from its publisher.</div>}
          {form.incompatible && <div className="alert" role="alert">{form.incompatible}</div>}
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
          {err && <div className="alert" role="alert">{err}</div>}
          <div className="row">
            <button type="submit" className={confirming(form) ? 'danger' : 'primary'} disabled={busy || form.incompatible !== '' || form.signed === 'invalid'}>
              {busy ? 'Installing…' : confirming(form) ? 'Install anyway' : form.installed ? 'Reinstall' : 'Install'}
            </button>
            <button type="button" onClick={() => { setForm(null); setErr(''); }}>Cancel</button>
          </div>
        </form>
      )}
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
