import { Fragment, useEffect, useEffectEvent, useId, useRef, useState } from 'react';
import { call, CheckServerForm, LooksSecret, SaveServerForm, SaveServerJSON, ServerForm } from '../../backend';
import type { gui } from '../../backend';
import { refreshServers } from '../../servers';
import { useDismiss } from '../../dismiss';
import { message } from '../../errors';
import { Icon } from '../../components/Icon';
import { FieldBox, ProblemCount, sentence, useSubmitProblems } from '../../components/FormField';
import {
  TRANSPORTS, emptyKeyValue, fromView, groupProblems, jsonProblemText, localProblems, move, newId, savedText, toView,
  type Field, type FormState, type KeyValue, type Problems, type Transport,
} from '../../serverform';
import { formJSON } from './entryJson';
import './ServerEditor.css';

/** FIELD_LABELS name the fields as the form labels them, for the count of problems beside the submit button. */
const FIELD_LABELS: Record<Field, string> = {
  name: 'Name', transport: 'Transport', command: 'Command', args: 'Arguments', env: 'Environment', cwd: 'Working directory',
  envFile: 'Environment file', url: 'URL', headers: 'Headers', startupTimeout: 'Startup timeout', toolTimeout: 'Tool timeout',
  includeTools: 'Offer only these tools', excludeTools: 'Leave out these tools', form: 'Entry',
};
const FIELD_ORDER = Object.keys(FIELD_LABELS) as Field[];

/** labelsOf names the fields with a problem (a warning, saved as it is, is none), in the form's order. */
function labelsOf(ps: Problems): string[] {
  return FIELD_ORDER.filter((f) => (ps[f] ?? []).some((p) => !p.startsWith('Warning: '))).map((f) => FIELD_LABELS[f]);
}

/**
 * ServerEditor edits one server's entry (name given) or adds a new one
 * (no name): a form with a problem under each field, checked with
 * config.json's own rules as one types, or the entry as JSON. Saving
 * restarts the server and shows how it runs.
 */
export function ServerEditor({ name, onClose }: { name?: string; onClose: () => void }) {
  const [old, setOld] = useState(name ?? '');
  const [view, setView] = useState<gui.ServerFormView | null>(null);
  const [form, setForm] = useState<FormState | null>(null);
  const [mode, setMode] = useState<'form' | 'json'>('form');
  const [json, setJson] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [jsonProblems, setJsonProblems] = useState<gui.FieldProblemView[]>([]);
  const [dirty, setDirty] = useState(false);
  // The form changed since "Edit as JSON" last showed it: the JSON is rebuilt from the form.
  const [formEdited, setFormEdited] = useState(false);
  const [saving, setSaving] = useState(false);
  const [result, setResult] = useState<{ text: string; ok: boolean } | null>(null);
  const [err, setErr] = useState('');
  const titleId = useId();
  // The editor takes focus as it opens (its Name field once the entry is
  // in), Esc closes it and focus goes back to the button that opened it.
  const panel = useRef<HTMLElement | null>(null);
  const setPanel = (el: HTMLElement | null) => { panel.current = el; };
  useDismiss(true, onClose, { panel });
  // A submit that found problems: focus on the first, a count by the button.
  const submit = useSubmitProblems(panel);

  const load = async (n: string) => {
    const v = await call(() => ServerForm(n));
    setView(v);
    setForm(fromView(v));
    setJson(v.json);
    setDirty(false);
    setFormEdited(false);
  };
  useEffect(() => {
    load(name ?? '').catch((e: unknown) => setErr(message(e)));
  }, [name]);

  // Check as one types (debounced): the Go side's rules are config.json's.
  // An edit asks for a check; the check reads the server's name and view as they are then.
  const checkSeq = useRef(0);
  const check = useEffectEvent((f: FormState, seq: number) => {
    if (!view) return;
    call(() => CheckServerForm(old, toView(f, view.base))).then((ps) => {
      if (seq === checkSeq.current) setProblems({ ...groupProblems(ps ?? []), ...localProblems(f) });
    }, () => undefined);
  });
  useEffect(() => {
    if (!form || !dirty || mode !== 'form') return;
    const seq = ++checkSeq.current;
    const t = setTimeout(() => check(form, seq), 350);
    return () => clearTimeout(t);
  }, [form, dirty, mode]);

  const change = (patch: Partial<FormState>) => {
    setForm((f) => (f ? { ...f, ...patch } : f));
    // An edited field's old problem goes at once; the check after typing says if it still holds.
    setProblems((p) => Object.fromEntries(Object.entries(p).filter(([k]) => !(k in patch))) as Problems);
    setDirty(true);
    setFormEdited(true);
    setResult(null);
    submit.clear();
  };

  // "Edit as JSON" shows what the form holds: the entry as loaded with the
  // fields typed over it (a new secret value excepted: it never goes into
  // config.json's text, so the JSON then stays the saved entry).
  const [jsonNote, setJsonNote] = useState('');
  const toJSON = () => {
    setMode('json');
    if (!form || !view || !formEdited) return;
    const text = formJSON(form, view.base);
    if (text === null) {
      setJsonNote('This is the entry as saved: a secret typed in the form goes to the keyring only from the form, so the form\'s changes are not in it.');
      return;
    }
    setJson(text);
    setJsonNote('');
    setFormEdited(false);
  };

  const done = async (v: gui.ServerSaveView) => {
    if (!v.saved) {
      submit.failed(mode === 'json' ? ['Entry'] : labelsOf(groupProblems(v.problems ?? [])));
      return;
    }
    setResult({ text: savedText(v), ok: v.server.state === 'ready' || v.server.state === 'disabled' });
    setOld(v.server.name);
    await refreshServers();
    await load(v.server.name); // the saved entry is the base of the next save
  };

  const save = async () => {
    if (!form || !view) return;
    submit.clear();
    setErr('');
    setResult(null);
    setSaving(true);
    try {
      if (mode === 'json') {
        setJsonProblems([]);
        const v = await call(() => SaveServerJSON(old, form.name.trim(), json, view.base));
        setJsonProblems(v.problems ?? []);
        await done(v);
        return;
      }
      const local = localProblems(form);
      if (Object.keys(local).length > 0) {
        setProblems(local);
        submit.failed(labelsOf(local));
        return;
      }
      const v = await call(() => SaveServerForm(old, toView(form, view.base)));
      setProblems(groupProblems(v.problems ?? []));
      await done(v);
    } catch (e) {
      setErr(message(e));
    } finally {
      setSaving(false);
    }
  };

  if (!form || !view) {
    return (
      <div className="server-editor" role="region" aria-label={name ? `Edit ${name}` : 'Add server'} ref={setPanel}>
        {err ? <div className="alert" role="alert">{err}</div> : <p className="muted">Loading…</p>}
        <button type="button" onClick={onClose}>Close</button>
      </div>
    );
  }
  const stdio = form.transport === 'stdio';
  const title = name ? `Edit ${name}` : 'Add server';
  // Until the entry is in config.json, the path is where it will go.
  const unsaved = dirty || (!name && !old);
  return (
    <form className="server-editor" aria-labelledby={titleId} noValidate ref={setPanel}
      onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <div className="server-editor-head">
        <h2 id={titleId}>{title}</h2>
        <div className="row" role="group" aria-label="Editor">
          <button type="button" className="chip" aria-pressed={mode === 'form'} onClick={() => setMode('form')}>Form</button>
          <button type="button" className="chip" aria-pressed={mode === 'json'} onClick={toJSON}>Edit as JSON</button>
        </div>
      </div>
      <FieldBox label="Name" problems={problems.name} hint="Prefixes its tools (name__tool).">
        {(f) => <input {...f} value={form.name} autoFocus autoComplete="off" spellCheck={false}
          onChange={(e) => change({ name: e.target.value })} />}
      </FieldBox>
      {mode === 'json' ? (
        <JsonEditor json={json} setJson={(t) => { setJson(t); setResult(null); }} problems={jsonProblems} note={jsonNote} />
      ) : (<>
        <FieldBox label="Transport" problems={problems.transport}>
          {(f) => (
            <select {...f} value={form.transport} onChange={(e) => change({ transport: e.target.value as Transport })}>
              {TRANSPORTS.map((t) => <option key={t.value} value={t.value}>{t.label}</option>)}
            </select>
          )}
        </FieldBox>
        {stdio ? (<>
          <FieldBox label="Command" problems={problems.command} hint="The program to run, e.g. npx, uvx, docker or a full path.">
            {(f) => <input {...f} value={form.command} className="mono" spellCheck={false} autoComplete="off"
              placeholder="npx" onChange={(e) => change({ command: e.target.value })} />}
          </FieldBox>
          <ArgsEditor args={form.args} problems={problems.args} onChange={(args) => change({ args })} />
          <KeyValues label="Environment" what="variable" header={false} rows={form.env} problems={problems.env} onChange={(env) => change({ env })} />
          <FieldBox label="Working directory" problems={problems.cwd} hint="Empty: Switchboard's own.">
            {(f) => <input {...f} value={form.cwd} className="mono" spellCheck={false}
              onChange={(e) => change({ cwd: e.target.value })} />}
          </FieldBox>
          <FieldBox label="Environment file" problems={problems.envFile} hint="A .env file (NAME=value lines) whose variables the server gets too; the ones above win. Empty: none.">
            {(f) => <input {...f} value={form.envFile} className="mono" spellCheck={false} autoComplete="off"
              placeholder="/path/to/project/.env" onChange={(e) => change({ envFile: e.target.value })} />}
          </FieldBox>
        </>) : (<>
          <FieldBox label="URL" problems={problems.url} hint="https://…; plain http only to localhost.">
            {(f) => <input {...f} type="url" value={form.url} className="mono" spellCheck={false}
              placeholder="https://example.com/mcp" onChange={(e) => change({ url: e.target.value })} />}
          </FieldBox>
          <KeyValues label="Headers" what="header" header rows={form.headers} problems={problems.headers} onChange={(headers) => change({ headers })} />
        </>)}
        <div className="server-editor-pair">
          <FieldBox label="Startup timeout (seconds)" problems={problems.startupTimeout} hint="Empty: the default.">
            {(f) => <input {...f} inputMode="decimal" value={form.startupTimeout}
              onChange={(e) => change({ startupTimeout: e.target.value })} />}
          </FieldBox>
          <FieldBox label="Tool timeout (seconds)" problems={problems.toolTimeout} hint="Empty: the default.">
            {(f) => <input {...f} inputMode="decimal" value={form.toolTimeout}
              onChange={(e) => change({ toolTimeout: e.target.value })} />}
          </FieldBox>
        </div>
        <div className="server-editor-pair">
          <FieldBox label="Offer only these tools" problems={problems.includeTools} hint="Tool names, separated by commas. Empty: every tool.">
            {(f) => <input {...f} value={form.includeTools} className="mono" spellCheck={false} autoComplete="off"
              placeholder="all" onChange={(e) => change({ includeTools: e.target.value })} />}
          </FieldBox>
          <FieldBox label="Leave out these tools" problems={problems.excludeTools} hint="Never offered to chats or connected apps.">
            {(f) => <input {...f} value={form.excludeTools} className="mono" spellCheck={false} autoComplete="off"
              placeholder="none" onChange={(e) => change({ excludeTools: e.target.value })} />}
          </FieldBox>
        </div>
        <label className="server-editor-check">
          <input type="checkbox" checked={form.enabled} onChange={(e) => change({ enabled: e.target.checked })} /> Enabled
        </label>
        {(problems.form ?? []).length > 0 && (
          <div className="field field-bad">{(problems.form ?? []).map((p) => <p key={p} className="field-problem">{sentence(p)}</p>)}</div>
        )}
      </>)}
      {err && <div className="alert" role="alert">{err}</div>}
      {result && <div className={result.ok ? 'alert alert-soft server-saved' : 'alert server-saved'} role="status">{result.text}</div>}
      <div className="row server-editor-actions">
        <button type="submit" className="primary" disabled={saving}>{saving ? 'Saving and starting…' : name || old ? 'Save and restart' : 'Add and start'}</button>
        <button type="button" onClick={onClose}>{result ? 'Close' : 'Cancel'}</button>
        <ProblemCount summary={submit.summary} />
        <span className="muted small server-editor-path" title={view.configPath}>{unsaved ? 'Will be saved to' : 'Saved in'} {view.configPath}</span>
      </div>
    </form>
  );
}

/** ArgsEditor edits the arguments, one per row: add, remove, move. */
function ArgsEditor({ args, problems, onChange }: { args: { id: number; value: string }[]; problems?: string[]; onChange: (a: { id: number; value: string }[]) => void }) {
  const lastRef = useRef<HTMLInputElement>(null);
  const [focusLast, setFocusLast] = useState(false);
  useEffect(() => {
    if (focusLast) lastRef.current?.focus();
    setFocusLast(false);
  }, [focusLast]);
  return (
    <fieldset className={(problems ?? []).length ? 'field field-bad' : 'field'}>
      <legend>Arguments</legend>
      {args.length === 0 && <p className="muted small field-hint">No arguments.</p>}
      <ol className="kv-rows">
        {args.map((a, i) => (
          <li key={a.id} className="kv-row">
            <input aria-label={`Argument ${i + 1}`} className="mono" value={a.value} spellCheck={false}
              ref={i === args.length - 1 ? lastRef : undefined}
              onChange={(e) => onChange(args.map((x) => (x.id === a.id ? { ...x, value: e.target.value } : x)))} />
            <button type="button" className="icon-btn" aria-label={`Move argument ${i + 1} up`} title="Move up" disabled={i === 0} onClick={() => onChange(move(args, i, -1))}><Icon name="up" size={14} /></button>
            <button type="button" className="icon-btn" aria-label={`Move argument ${i + 1} down`} title="Move down" disabled={i === args.length - 1} onClick={() => onChange(move(args, i, 1))}><Icon name="down" size={14} /></button>
            <button type="button" className="icon-btn" aria-label={`Remove argument ${i + 1}`} title="Remove" onClick={() => onChange(args.filter((x) => x.id !== a.id))}><Icon name="close" size={14} /></button>
          </li>
        ))}
      </ol>
      <button type="button" className="small-btn" onClick={() => { onChange([...args, { id: newId(), value: '' }]); setFocusLast(true); }}>Add argument</button>
      {(problems ?? []).map((p) => <p key={p} className="field-problem">{sentence(p)}</p>)}
    </fieldset>
  );
}

/**
 * useSecretHints asks the Go side which plaintext rows look like secrets,
 * by the rule an import and 'servers add' follow (a token's shape, a name
 * such as API_KEY or Authorization), so the form can propose the keyring.
 */
export function useSecretHints(rows: KeyValue[], header: boolean): Set<number> {
  const [flagged, setFlagged] = useState<Set<number>>(new Set());
  useEffect(() => {
    let live = true;
    const t = setTimeout(() => {
      const plain = rows.filter((r) => !r.secret && r.key.trim() !== '' && r.value.trim() !== '');
      Promise.all(plain.map((r) => call(() => LooksSecret(r.key, r.value, header)).then((yes) => (yes ? r.id : -1), () => -1)))
        .then((ids) => { if (live) setFlagged(new Set(ids.filter((id) => id >= 0))); }, () => undefined);
    }, 250);
    return () => { live = false; clearTimeout(t); };
  }, [rows, header]);
  return flagged;
}

/** KeyValues edits environment variables or headers; a row marked secret goes to the OS keyring. */
function KeyValues({ label, what, header, rows, problems, onChange }: {
  label: string; what: string; header: boolean; rows: KeyValue[]; problems?: string[]; onChange: (r: KeyValue[]) => void;
}) {
  const set = (id: number, patch: Partial<KeyValue>) => onChange(rows.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  const hints = useSecretHints(rows, header);
  return (
    <fieldset className={(problems ?? []).length ? 'field field-bad' : 'field'}>
      <legend>{label}</legend>
      {rows.length === 0 && <p className="muted small field-hint">None.</p>}
      <ul className="kv-rows">
        {rows.map((r, i) => (
          <Fragment key={r.id}>
          <li className="kv-row">
            <input aria-label={`${label} ${i + 1} name`} className="mono kv-key" value={r.key} placeholder="NAME" spellCheck={false}
              onChange={(e) => set(r.id, { key: e.target.value })} />
            <input aria-label={`${label} ${i + 1} value`} className="mono" value={r.value} spellCheck={false} autoComplete="off"
              type={r.secret ? 'password' : 'text'}
              placeholder={r.secret && r.secretRef ? 'stored in the keyring (unchanged)' : 'value'}
              onChange={(e) => set(r.id, { value: e.target.value })} />
            <label className="kv-secret" title="Keep the value in the OS keyring; config.json gets a ${secret:…} reference">
              <input type="checkbox" checked={r.secret} onChange={(e) => set(r.id, { secret: e.target.checked })} /> Secret
            </label>
            <button type="button" className="icon-btn" aria-label={`Remove ${what} ${r.key || i + 1}`} title="Remove"
              onClick={() => onChange(rows.filter((x) => x.id !== r.id))}><Icon name="close" size={14} /></button>
          </li>
          {!r.secret && hints.has(r.id) && (
            <li className="kv-hint small" role="note">
              {r.key} looks like a secret: it would be saved in plain text in config.json.{' '}
              <button type="button" className="small-btn" onClick={() => set(r.id, { secret: true })}>Keep {r.key} in the keyring</button>
            </li>
          )}
          </Fragment>
        ))}
      </ul>
      <button type="button" className="small-btn" onClick={() => onChange([...rows, emptyKeyValue()])}>Add {what}</button>
      {(problems ?? []).map((p) => <p key={p} className="field-problem">{sentence(p)}</p>)}
    </fieldset>
  );
}

/** JsonEditor is "Edit as JSON": the entry's text, its problems as line:column. */
function JsonEditor({ json, setJson, problems, note }: {
  json: string; setJson: (t: string) => void; problems: gui.FieldProblemView[]; note: string;
}) {
  const id = useId();
  const lines = Math.min(24, Math.max(8, json.split('\n').length + 1));
  return (
    <div className={problems.length ? 'field field-bad' : 'field'}>
      <label htmlFor={id}>Entry (JSON, as in config.json's mcpServers)</label>
      {note && <p className="muted small field-hint">{note}</p>}
      <textarea id={id} rows={lines} value={json} spellCheck={false} aria-describedby={`${id}-desc`}
        aria-invalid={problems.length > 0} onChange={(e) => setJson(e.target.value)} />
      <div id={`${id}-desc`} role={problems.length ? 'alert' : undefined}>
        {problems.map((p) => <p key={jsonProblemText(p)} className="field-problem">{sentence(jsonProblemText(p))}</p>)}
      </div>
    </div>
  );
}
