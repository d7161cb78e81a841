import { useEffect, useState } from 'react';
import { AddServerFromTemplate, Templates } from '../../wailsjs/go/app/ServersPage';
import type { app, library } from '../../wailsjs/go/models';
import { call } from '../backend';
import { message, refreshServers } from '../servers';
import { ExternalLink } from './ExternalLink';

/** TemplatePicker adds a server from a template: pick one, fill in the form generated from its parameters' schema. */
export function TemplatePicker({ onClose }: { onClose: () => void }) {
  const [templates, setTemplates] = useState<app.TemplateView[]>([]);
  const [chosen, setChosen] = useState<app.TemplateView | null>(null);
  const [err, setErr] = useState('');
  useEffect(() => {
    call(() => Templates()).then(setTemplates, (e: unknown) => setErr(message(e)));
  }, []);
  return (
    <div className="card template-picker" role="dialog" aria-label="Add from template" onKeyDown={(e) => { if (e.key === 'Escape') onClose(); }}>
      <div className="row">
        <h2>{chosen ? chosen.title : 'Add a server from a template'}</h2>
        <span className="spacer" />
        <button type="button" onClick={onClose}>Close</button>
      </div>
      {err && <div className="alert" role="alert">{err}</div>}
      {chosen ? (
        <TemplateForm template={chosen} onBack={() => setChosen(null)} onAdded={onClose} />
      ) : (
        <ul className="template-list" aria-label="Templates">
          {templates.map((t) => (
            <li key={t.source + t.id}>
              <button type="button" onClick={() => setChosen(t)} disabled={!!t.error} aria-label={`Template ${t.title}`}>
                <strong>{t.title}</strong>
                <span className="small muted">{t.description || t.preview}</span>
                <span className="row small">
                  {t.tags.map((x) => <span key={x} className="tag">{x}</span>)}
                  {t.source === 'config' && <span className="tag">from your config</span>}
                </span>
                {t.error && <span className="small bad">{t.error}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function TemplateForm({ template: t, onBack, onAdded }: { template: app.TemplateView; onBack: () => void; onAdded: () => void }) {
  const [name, setName] = useState(t.id);
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(t.params.map((p) => [p.name, p.default])));
  const [err, setErr] = useState('');
  const [busy, setBusy] = useState(false);
  const add = async () => {
    setErr('');
    setBusy(true);
    try {
      await call(() => AddServerFromTemplate(t.id, name, values));
      await refreshServers();
      onAdded();
    } catch (e) {
      setErr(message(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form aria-label={`Add ${t.title}`} onSubmit={(e) => { e.preventDefault(); void add(); }}>
      <p className="small muted">{t.description} <code>{t.preview}</code> {t.docsUrl && <ExternalLink href={t.docsUrl}>Docs</ExternalLink>}</p>
      <label>Server name <input value={name} required onChange={(e) => setName(e.target.value)} /></label>
      {t.params.map((p) => (
        <ParamField key={p.name} param={p} value={values[p.name] ?? ''} onChange={(v) => setValues({ ...values, [p.name]: v })} />
      ))}
      {t.params.length === 0 && <p className="small muted">This template takes no parameters.</p>}
      {err && <div className="alert" role="alert">{err}</div>}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>{busy ? 'Adding…' : 'Add server'}</button>
        <button type="button" onClick={onBack}>Back</button>
      </div>
    </form>
  );
}

/** ParamField is one parameter's input, chosen from its schema type. */
function ParamField({ param: p, value, onChange }: { param: library.Param; value: string; onChange: (v: string) => void }) {
  const label = `${p.title}${p.required ? ' *' : ''}`;
  const hint = p.description ? <span className="small muted">{p.description}{p.secret ? ' (kept in the keyring)' : ''}</span> : null;
  if (p.type === 'boolean') {
    return (
      <label className="check">
        <input type="checkbox" checked={value === 'true'} onChange={(e) => onChange(String(e.target.checked))} /> {label} {hint}
      </label>
    );
  }
  if (p.enum && p.enum.length > 0) {
    return (
      <label>{label}
        <select value={value} required={p.required} onChange={(e) => onChange(e.target.value)}>
          {!p.required && <option value="">(none)</option>}
          {p.enum.map((v) => <option key={v} value={v}>{v}</option>)}
        </select>
        {hint}
      </label>
    );
  }
  const type = p.secret ? 'password' : p.type === 'integer' || p.type === 'number' ? 'number' : 'text';
  return (
    <label>{label}
      <input type={type} value={value} autoComplete="off" onChange={(e) => onChange(e.target.value)} />
      {hint}
    </label>
  );
}
