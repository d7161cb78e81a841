import { useEffect, useRef, useState } from 'react';
import { LocalModelChoice } from './LocalModelChoice';
import { LocalModels } from '../../components/LocalModels';
import { SaveProvider, SetDefaultProvider } from '../../backend';
import type { gui } from '../../backend';
import { ImportWizard } from '../../components/ImportWizard';
import { message } from '../../errors';
import { store } from '../../store';
import { useWelcome, welcome } from '../../welcome';
import { count } from '../../plural';
import { FieldBox, ProblemCount, useSubmitProblems } from '../../components/FormField';
import { checkProvider, providerProblems } from '../../providercheck';

/** HOSTED are the providers the welcome page adds: the hosted ones by their key, or any server that speaks OpenAI's API. */
const HOSTED = [
  { id: 'openai', kind: 'openai', name: 'OpenAI', label: 'OpenAI', model: 'gpt-4.1-mini' },
  { id: 'anthropic', kind: 'anthropic', name: 'Anthropic', label: 'Anthropic', model: 'claude-sonnet-4-5' },
  { id: 'compatible', kind: 'openai', name: '', label: 'OpenAI-compatible (LM Studio, Ollama, …)', model: '' },
];

/** COMPATIBLE_URL is where LM Studio's server listens unless told otherwise. */
const COMPATIBLE_URL = 'http://localhost:1234/v1';

/**
 * WelcomePage is the first run: import the servers other apps already
 * have, pick a model (one running here, or a hosted provider's key), and see
 * where the data lives. Done or skipped, it never comes back.
 */
export function WelcomePage() {
  const view = useWelcome((s) => s.view);
  const [importing, setImporting] = useState<string | null>(null);
  const [imported, setImported] = useState<string[]>([]);
  const [model, setModel] = useState('');
  const [err, setErr] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => { heading.current?.focus(); }, []);
  if (!view) return null;
  // Every config with server entries shows, valid or not: one broken entry
  // must not hide the four that import fine.
  const configs = view.configs.filter((c) => c.servers + c.needsAttention > 0 || c.problem);

  const chooseLocal = async (m: gui.LocalModel, chosen: string) => {
    setErr('');
    try {
      await SaveProvider({ name: m.name, kind: m.kind, baseUrl: m.baseUrl, defaultModel: chosen, apiKey: '' });
      await SetDefaultProvider(m.name);
      setModel(`${m.name}${chosen ? ` (${chosen})` : ''}`);
    } catch (e) {
      setErr(message(e));
    }
  };

  const done = async () => {
    try {
      await welcome.finish();
      store.navigate(model ? 'chat' : imported.length ? 'servers' : 'chat');
    } catch (e) {
      setErr(message(e));
    }
  };

  return (
    <section className="welcome" aria-labelledby="welcome-title">
      <h1 id="welcome-title" tabIndex={-1} ref={heading}>Welcome to Switchboard</h1>
      <p className="muted">Bring the MCP servers you already use to any model. Three steps; you can change everything later.</p>

      <section aria-labelledby="welcome-servers" className="welcome-step">
        <h2 id="welcome-servers">1. Your MCP servers</h2>
        {configs.length === 0 ? (
          <p className="muted">No config with servers of Claude Desktop, Claude Code, Cursor, VS Code, Codex or another MCP app was found on this machine. Add servers later on the Servers page (Add server, Import…, or a template).</p>
        ) : (
          <ul className="welcome-list" aria-label="Configs found on this machine">
            {configs.map((c) => (
              <li key={c.path}>
                <span>
                  <strong>{c.app}</strong>{c.scope === 'project' ? ' (this project)' : ''} —{' '}
                  <span className={c.problem || c.needsAttention ? 'warn' : undefined}>{c.summary}</span>{' '}
                  <code className="small muted" title={c.path}>{c.path}</code>
                </span>
                {imported.includes(c.path) || (c.imported > 0 && c.imported >= c.servers + c.needsAttention) ? (
                  <span className="notice">Imported</span>
                ) : (
                  <button type="button" onClick={() => setImporting(c.path)}
                    aria-label={c.problem ? `Open ${c.app}'s config to fix it` : `Import ${count(c.servers + c.needsAttention, 'server')} from ${c.app}`}>
                    {c.problem ? 'Open…' : 'Import…'}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        {importing && (
          <ImportWizard
            initialPath={importing}
            onImported={() => {
              setImported([...imported, importing]);
              // The counts follow: what was imported (fixed or not) no longer needs attention.
              welcome.refresh().catch((e: unknown) => setErr(message(e)));
            }}
            onClose={() => setImporting(null)}
          />
        )}
      </section>

      <section aria-labelledby="welcome-model" className="welcome-step">
        <h2 id="welcome-model">2. A model</h2>
        {model && <p className="notice" role="status">Chats will use {model}.</p>}
        {!model && view.local.length > 0 && (
          <ul className="welcome-list" aria-label="Models running on this machine">
            {view.local.map((m) => <LocalModelChoice key={m.name} server={m} onUse={(chosen) => void chooseLocal(m, chosen)} />)}
          </ul>
        )}
        {/* One element in one place, chosen or not: a second download still running once the first made the choice keeps its progress and Cancel in view. */}
        <LocalModels downloadsOnly={!!model} onReady={(m) => setModel((cur) => cur || `${m.title}, ready on this computer`)} />
        {!model && view.local.length === 0 && <HostedKey onSaved={setModel} onError={setErr} />}
      </section>

      <section aria-labelledby="welcome-data" className="welcome-step">
        <h2 id="welcome-data">3. Where your data is</h2>
        <p>
          Servers and settings, chat history and logs are kept in <code>{view.dataDir}</code>. Keys go to the
          system keyring, never to that folder.
        </p>
      </section>

      {err && <div className="alert" role="alert">{err}</div>}
      <div className="wizard-actions">
        <button type="button" className="primary" onClick={() => void done()}>Done</button>
        <button type="button" onClick={() => void done()}>Skip for now</button>
      </div>
    </section>
  );
}

/**
 * HostedKey adds a hosted provider from its key, or a server that speaks
 * OpenAI's API (LM Studio, Ollama, llama.cpp, vLLM, OpenRouter) from its
 * base URL. The provider is asked for its models as it is saved: it
 * becomes what chats use only once it answers.
 */
export function HostedKey({ onSaved, onError }: { onSaved: (m: string) => void; onError: (e: string) => void }) {
  const [id, setId] = useState(HOSTED[0]!.id);
  const [key, setKey] = useState('');
  const [url, setUrl] = useState(COMPATIBLE_URL);
  const [problems, setProblems] = useState<Partial<Record<'key' | 'url', string[]>>>({});
  const [state, setState] = useState<{ busy: boolean; failed: string }>({ busy: false, failed: '' });
  const form = useRef<HTMLFormElement>(null);
  const submit = useSubmitProblems(form);
  const p = HOSTED.find((h) => h.id === id) ?? HOSTED[0]!;
  const compatible = p.id === 'compatible';
  const save = async () => {
    const found: typeof problems = {};
    if (compatible) {
      const bad = url.trim() ? providerProblems({ name: 'x', baseUrl: url }).baseUrl : ['Write the server\'s base URL, such as http://localhost:1234/v1.'];
      if (bad) found.url = bad;
    } else if (!key.trim()) found.key = [`Paste your ${p.name} API key: it goes to the system keyring.`];
    setProblems(found);
    if (Object.keys(found).length > 0) {
      submit.failed(found.url ? ['Base URL'] : ['API key']);
      return;
    }
    const name = compatible ? compatibleName(url) : p.name;
    const baseUrl = compatible ? url.trim() : '';
    setState({ busy: true, failed: '' });
    try {
      await SaveProvider({ name, kind: p.kind, baseUrl, defaultModel: p.model, apiKey: key.trim() });
      const checked = await checkProvider(name, []);
      if (!checked.ok) {
        setState({ busy: false, failed: `Saved, but ${name} does not work yet: ${checked.error}` });
        return;
      }
      // A server's own model when none was named: the first it lists.
      const model = p.model || checked.models[0] || '';
      if (model !== p.model) await SaveProvider({ name, kind: p.kind, baseUrl, defaultModel: model, apiKey: '' });
      await SetDefaultProvider(name);
      setState({ busy: false, failed: '' });
      onSaved(`${name}${model ? ` (${model})` : ''}, connected: ${count(checked.models.length, 'model')}`);
    } catch (e) {
      setState({ busy: false, failed: '' });
      onError(message(e));
    }
  };
  return (
    <form aria-label="Hosted provider" className="welcome-hosted" noValidate ref={form} onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <p className="muted">Or use a hosted model with your key (it goes to the keyring), or a model server of your own:</p>
      <label>Provider{' '}
        <select value={id} onChange={(e) => { setId(e.target.value); setProblems({}); setState({ busy: false, failed: '' }); }}>
          {HOSTED.map((h) => <option key={h.id} value={h.id}>{h.label}</option>)}
        </select>
      </label>{' '}
      {compatible && (
        <FieldBox label="Base URL" problems={problems.url} hint="LM Studio: http://localhost:1234/v1 · Ollama: http://localhost:11434/v1">
          {(f) => <input {...f} value={url} spellCheck={false} onChange={(e) => { setUrl(e.target.value); setProblems({}); }} />}
        </FieldBox>
      )}
      <FieldBox label={compatible ? 'API key (if it asks for one)' : 'API key'} problems={problems.key}>
        {(f) => <input {...f} type="password" value={key} onChange={(e) => { setKey(e.target.value); setProblems({}); }} autoComplete="off" />}
      </FieldBox>
      <div className="row">
        <button type="submit" disabled={state.busy}>{state.busy ? 'Connecting…' : compatible ? 'Connect' : 'Save key'}</button>
        <ProblemCount summary={submit.summary} />
      </div>
      {state.failed && <div className="alert" role="alert">{state.failed}</div>}
    </form>
  );
}

/** compatibleName names a server by its usual port (LM Studio's 1234, Ollama's 11434), else by its host. */
export function compatibleName(url: string): string {
  try {
    const u = new URL(url.trim());
    if (u.port === '1234') return 'LM Studio';
    if (u.port === '11434') return 'Ollama';
    return u.host;
  } catch {
    return 'OpenAI-compatible';
  }
}
