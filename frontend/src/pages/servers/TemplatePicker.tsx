import { useEffect, useMemo, useState } from 'react';
import { AddServerFromTemplate, call, Templates } from '../../backend';
import type { gui, host } from '../../backend';
import { refreshServers } from '../../servers';
import { message } from '../../errors';
import { ExternalLink } from '../../components/ExternalLink';
import { SchemaForm } from '../../components/LazySchemaForm';

/** TemplatePicker adds a server from a template: pick one, fill in the form generated from its parameters' schema. */
export function TemplatePicker({ onClose }: { onClose: () => void }) {
  const [templates, setTemplates] = useState<gui.TemplateView[]>([]);
  const [chosen, setChosen] = useState<gui.TemplateView | null>(null);
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

/** nameKey is the server name's field in a template's form: "$" keeps it apart from any {{param}} name. */
const nameKey = '$server';

/**
 * paramsSchema: the server name and a template's parameters as the JSON
 * Schema SchemaForm shows (secret ones as password fields), and the values
 * it starts with.
 */
export function paramsSchema(id: string, params: host.TemplateParam[]): { schema: Record<string, unknown>; uiSchema: Record<string, unknown>; start: Record<string, unknown> } {
  const properties: Record<string, unknown> = { [nameKey]: { type: 'string', title: 'Server name', minLength: 1 } };
  const uiSchema: Record<string, unknown> = { [nameKey]: { 'ui:autocomplete': 'off' } };
  const start: Record<string, unknown> = { [nameKey]: id };
  for (const p of params) {
    const type = p.type === 'boolean' || p.type === 'integer' || p.type === 'number' ? p.type : 'string';
    properties[p.name] = {
      type,
      title: p.title || p.name,
      ...(p.description || p.secret ? { description: `${p.description}${p.secret ? ' (kept in the keyring)' : ''}`.trim() } : {}),
      ...(p.enum && p.enum.length > 0 ? { enum: p.enum } : {}),
      ...(p.format && p.format !== 'password' ? { format: p.format } : {}),
    };
    if (p.secret) uiSchema[p.name] = { 'ui:widget': 'password', 'ui:autocomplete': 'off' };
    if (p.default !== '') start[p.name] = type === 'boolean' ? p.default === 'true' : type === 'string' ? p.default : Number(p.default);
  }
  return { schema: { type: 'object', properties, required: [nameKey, ...params.filter((p) => p.required).map((p) => p.name)] }, uiSchema, start };
}

/** paramValues: the server name, and the parameters as the text AddServerFromTemplate takes (it converts them by the schema). */
export function paramValues(data: Record<string, unknown>): { name: string; values: Record<string, string> } {
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(data)) if (k !== nameKey && v !== undefined && v !== null) values[k] = String(v);
  return { name: typeof data[nameKey] === 'string' ? data[nameKey] : '', values };
}

function TemplateForm({ template: t, onBack, onAdded }: { template: gui.TemplateView; onBack: () => void; onAdded: () => void }) {
  const form = useMemo(() => paramsSchema(t.id, t.params), [t.id, t.params]);
  const [values, setValues] = useState<Record<string, unknown>>(form.start);
  const [err, setErr] = useState('');
  const [busy, setBusy] = useState(false);
  const add = async (data: Record<string, unknown>) => {
    setErr('');
    setBusy(true);
    try {
      const { name, values } = paramValues(data);
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
    <div className="template-form">
      <p className="small muted">{t.description} <code>{t.preview}</code> {t.docsUrl && <ExternalLink href={t.docsUrl}>Docs</ExternalLink>}</p>
      {t.params.length === 0 && <p className="small muted">This template takes no parameters.</p>}
      <SchemaForm schema={form.schema} uiSchema={form.uiSchema} label={`Add ${t.title}`} formData={values} onChange={setValues} onSubmit={(d) => void add(d)}>
        {err && <div className="alert" role="alert">{err}</div>}
        <div className="row">
          <button type="submit" className="primary" disabled={busy}>{busy ? 'Adding…' : 'Add server'}</button>
          <button type="button" onClick={onBack}>Back</button>
        </div>
      </SchemaForm>
    </div>
  );
}
