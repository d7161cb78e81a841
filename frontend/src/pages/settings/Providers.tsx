import { useEffect, useRef, useState } from 'react';
import { call, ChatSettings, DeleteProvider, DetectOllama, hasBackend, SaveProvider, SetDefaultProvider } from '../../backend';
import type { gui } from '../../backend';
import { message } from '../../errors';
import { useConfigVersion } from '../../store';
import { LocalModelStatus } from './LocalModelStatus';
import { LocalModels } from '../../components/LocalModels';
import { FieldBox, ProblemCount, useSubmitProblems } from '../../components/FormField';
import { count } from '../../plural';
import { checkProvider, providerProblems, type Checked, type ProviderProblems } from '../../providercheck';

type ProviderView = gui.ProviderView;

const KINDS: { kind: string; label: string; url: string }[] = [
  { kind: 'openai', label: 'OpenAI-compatible', url: 'https://api.openai.com/v1' },
  { kind: 'anthropic', label: 'Anthropic', url: 'https://api.anthropic.com' },
  { kind: 'ollama', label: 'Ollama', url: 'http://127.0.0.1:11434' },
];

/** LABELS name the kinds the form does not offer (the local one comes from a downloaded or chosen model). */
const LABELS: Record<string, string> = { local: 'On this computer' };

/** Providers: the model providers chats use — add, edit, delete, choose the default; keys go to the keyring. */
export function Providers({ onChanged }: { onChanged?: () => void }) {
  const [list, setList] = useState<ProviderView[]>([]);
  const [err, setErr] = useState('');
  const [editing, setEditing] = useState<ProviderView | null>(null);
  const [ollama, setOllama] = useState(false);
  // How the provider saved last answered (the form shows a provider that did not).
  const [checked, setChecked] = useState<Checked | null>(null);
  const load = () => {
    if (!hasBackend()) return;
    call(ChatSettings).then((s) => setList(s.providers ?? []), (e: unknown) => setErr(message(e)));
    onChanged?.();
  };
  const configVersion = useConfigVersion();
  useEffect(() => {
    load();
    if (hasBackend()) call(DetectOllama).then(setOllama, () => setOllama(false));
  }, [configVersion]); // eslint-disable-line react-hooks/exhaustive-deps
  const blank: ProviderView = { name: '', kind: 'openai', baseUrl: '', defaultModel: '', hasKey: false, keyName: '', default: false, images: '', imagesDefault: false, audio: '', audioDefault: false };
  return (
    <div className="providers">
      {err && <div className="alert" role="alert">{err}</div>}
      <div role="status">
        {checked?.ok && (
          <p className="notice">
            Connected to {checked.name}: {count(checked.models.length, 'model')}.
            {!list.find((q) => q.name === checked.name)?.default && <> Chats start with the default provider; <button type="button" className="link"
              onClick={() => call(() => SetDefaultProvider(checked.name)).then(load, (e: unknown) => setErr(message(e)))}>make {checked.name} the default</button>.</>}
          </p>
        )}
      </div>
      {ollama && !list.some((p) => p.kind === 'ollama') && (
        <div className="notice" role="status">
          Ollama is running on this machine.{' '}
          <button type="button" onClick={() => setEditing({ ...blank, name: 'Ollama', kind: 'ollama', baseUrl: 'http://127.0.0.1:11434' })}>Add it</button>
        </div>
      )}
      <table className="preview" aria-label="Providers">
        <thead><tr><th>Name</th><th>Kind</th><th>Base URL</th><th>Default model</th><th>Key</th><th className="wide-only">Images</th><th className="wide-only">Audio</th><th /></tr></thead>
        <tbody>
          {list.map((p) => (
            <tr key={p.name} aria-label={p.name}>
              <td>{p.name} {p.default && <span className="badge">default</span>}</td>
              <td>{KINDS.find((k) => k.kind === p.kind)?.label ?? LABELS[p.kind] ?? p.kind}</td>
              <td className="small"><code>{p.baseUrl}</code></td>
              <td>{p.defaultModel || <span className="muted">—</span>}</td>
              <td>{p.hasKey ? 'stored' : <span className="muted">none</span>}</td>
              <td className="wide-only">{imagesLabel(p)}</td>
              <td className="wide-only">{audioLabel(p)}</td>
              <td className="row-actions">
                {p.kind !== 'local' && <button type="button" onClick={() => setEditing(p)}>Edit</button>}{' '}
                {!p.default && <button type="button" onClick={() => call(() => SetDefaultProvider(p.name)).then(load, (e: unknown) => setErr(message(e)))}>Make default</button>}{' '}
                <DeleteButton name={p.name} onDone={load} onError={setErr} />
              </td>
            </tr>
          ))}
          {list.length === 0 && <tr><td colSpan={8} className="muted">No provider yet. Add one to start chatting.</td></tr>}
        </tbody>
      </table>
      {editing ? (
        <ProviderForm initial={editing} before={list} onSaved={load} onDone={(c) => { setEditing(null); setChecked(c); load(); }} onCancel={() => { setEditing(null); load(); }} />
      ) : (
        <button type="button" className="primary" onClick={() => { setChecked(null); setEditing(blank); }}>Add provider</button>
      )}
      {list.some((p) => p.kind === 'local') && <LocalModelStatus />}
      <LocalModels manage onReady={load} />
    </div>
  );
}

function DeleteButton({ name, onDone, onError }: { name: string; onDone: () => void; onError: (s: string) => void }) {
  const [confirm, setConfirm] = useState(false);
  if (!confirm) return <button type="button" onClick={() => setConfirm(true)}>Delete</button>;
  return (
    <span role="alertdialog" aria-label={`Delete ${name}?`}>
      Delete?{' '}
      <button type="button" className="danger" autoFocus onClick={() => call(() => DeleteProvider(name)).then(onDone, (e: unknown) => onError(message(e)))}>Delete</button>{' '}
      <button type="button" onClick={() => setConfirm(false)}>Cancel</button>
    </span>
  );
}

function ProviderForm({ initial, before, onSaved, onDone, onCancel }: {
  initial: ProviderView; before: ProviderView[]; onSaved: () => void; onDone: (c: Checked) => void; onCancel: () => void;
}) {
  const [p, setP] = useState(initial);
  // The providers as they were when the form opened: which one was the default before this save.
  const [was] = useState(before);
  const [key, setKey] = useState('');
  const [err, setErr] = useState('');
  const [problems, setProblems] = useState<ProviderProblems>({});
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const submit = useSubmitProblems(form);
  const kind = KINDS.find((k) => k.kind === p.kind) ?? { kind: 'openai', label: 'OpenAI-compatible', url: 'https://api.openai.com/v1' };
  const edit = (patch: Partial<ProviderView>) => {
    setP((cur) => ({ ...cur, ...patch }));
    setProblems((cur) => Object.fromEntries(Object.entries(cur).filter(([k]) => !(k in patch))));
    submit.clear();
  };
  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    const found = providerProblems(p);
    setProblems(found);
    if (Object.keys(found).length > 0) {
      submit.failed((['name', 'baseUrl'] as const).filter((f) => found[f]).map((f) => (f === 'name' ? 'Name' : 'Base URL')));
      return;
    }
    submit.clear();
    setErr('');
    setBusy(true);
    try {
      await call(() => SaveProvider({ name: p.name, kind: p.kind, baseUrl: p.baseUrl, defaultModel: p.defaultModel, apiKey: key, images: p.images, audio: p.kind === 'openai' ? p.audio : '' }));
    } catch (x) {
      setErr(message(x));
      setBusy(false);
      return;
    }
    onSaved();
    // Saved; whether it answers decides what the user hears next.
    const checked = await checkProvider(p.name.trim(), was);
    setBusy(false);
    if (checked.ok) onDone(checked);
    else setErr(`Saved, but it does not work yet: ${checked.error} Fix the base URL or the key and save again.`);
  };
  return (
    <form className="provider-form" aria-label="Provider" noValidate ref={form} onSubmit={(e) => void save(e)} onKeyDown={(e) => { if (e.key === 'Escape') onCancel(); }}>
      {err && <div className="alert" role="alert">{err}</div>}
      <FieldBox label="Name" problems={problems.name}>
        {(f) => <input {...f} value={p.name} autoFocus onChange={(e) => edit({ name: e.target.value })} placeholder="OpenAI" />}
      </FieldBox>
      <label>Kind
        <select value={p.kind} onChange={(e) => edit({ kind: e.target.value, baseUrl: '' })}>
          {KINDS.map((k) => <option key={k.kind} value={k.kind}>{k.label}</option>)}
        </select>
      </label>
      <FieldBox label="Base URL" problems={problems.baseUrl} hint={p.kind === 'openai' ? 'LM Studio: http://localhost:1234/v1; Ollama: http://localhost:11434/v1.' : undefined}>
        {(f) => <input {...f} value={p.baseUrl} placeholder={kind.url} onChange={(e) => edit({ baseUrl: e.target.value })} />}
      </FieldBox>
      <label>Default model <input value={p.defaultModel} placeholder={p.kind === 'anthropic' ? 'claude-sonnet-4-5' : p.kind === 'ollama' ? 'llama3.2' : 'gpt-4.1-mini'} onChange={(e) => edit({ defaultModel: e.target.value })} /></label>
      {p.kind !== 'ollama' && (
        <label>API key <input type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)}
          placeholder={p.hasKey ? 'stored — leave empty to keep' : 'sk-…'} /></label>
      )}
      <div className="field">
        <label>Images from tools
          <select value={p.images} onChange={(e) => edit({ images: e.target.value })}
            aria-describedby="images-help">
            <option value="">Automatic (by kind and model)</option>
            <option value="on">Sent as images</option>
            <option value="off">Described in text</option>
          </select>
        </label>
        <p id="images-help" className="small muted">Whether this provider's models see the images tools return (scaled to 1568 px), or a line describing each. Turn it off for text-only models.</p>
      </div>
      {p.kind === 'openai' && (
        <div className="field">
          <label>Audio from tools
            <select value={p.audio} onChange={(e) => edit({ audio: e.target.value })}
              aria-describedby="audio-help">
              <option value="">Automatic (by model name)</option>
              <option value="on">Sent as audio</option>
              <option value="off">Described in text</option>
            </select>
          </label>
          <p id="audio-help" className="small muted">Whether this provider's models hear the WAV and MP3 clips tools return (up to 10 MB), or a line describing each. Automatic sends them to models named for audio (gpt-4o-audio, gpt-audio, Gemini, Voxtral, Qwen Omni).</p>
        </div>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>{busy ? 'Saving and checking…' : 'Save provider'}</button>
        <button type="button" onClick={onCancel}>Cancel</button>
        <ProblemCount summary={submit.summary} />
      </div>
    </form>
  );
}

/** imagesLabel says whether a provider's models get tools' images, and whether that is the default. */
function imagesLabel(p: ProviderView): string {
  if (p.images === 'on') return 'sent';
  if (p.images === 'off') return 'described';
  return p.imagesDefault ? 'sent (auto)' : 'described (auto)';
}

/** audioLabel says whether a provider's models get tools' audio (only OpenAI-compatible ones can), and whether that is the default. */
function audioLabel(p: ProviderView): string {
  if (p.kind !== 'openai') return 'described';
  if (p.audio === 'on') return 'sent';
  if (p.audio === 'off') return 'described';
  return p.audioDefault ? 'sent (auto)' : 'described (auto)';
}
