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

const HOSTED = [
  { kind: 'openai', name: 'OpenAI', model: 'gpt-4.1-mini' },
  { kind: 'anthropic', name: 'Anthropic', model: 'claude-sonnet-4-5' },
];

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

/** HostedKey adds a hosted provider from its key (no model runs on this machine). */
function HostedKey({ onSaved, onError }: { onSaved: (m: string) => void; onError: (e: string) => void }) {
  const [kind, setKind] = useState(HOSTED[0]!.kind);
  const [key, setKey] = useState('');
  const p = HOSTED.find((h) => h.kind === kind) ?? HOSTED[0]!;
  const save = async () => {
    try {
      await SaveProvider({ name: p.name, kind: p.kind, baseUrl: '', defaultModel: p.model, apiKey: key.trim() });
      await SetDefaultProvider(p.name);
      onSaved(`${p.name} (${p.model})`);
    } catch (e) {
      onError(message(e));
    }
  };
  return (
    <form aria-label="Hosted provider" className="welcome-hosted" onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <p className="muted">Or use a hosted model with your key (it goes to the keyring):</p>
      <label>Provider{' '}
        <select value={kind} onChange={(e) => setKind(e.target.value)}>
          {HOSTED.map((h) => <option key={h.kind} value={h.kind}>{h.name}</option>)}
        </select>
      </label>{' '}
      <label>API key <input type="password" value={key} onChange={(e) => setKey(e.target.value)} autoComplete="off" /></label>{' '}
      <button type="submit" disabled={!key.trim()}>Save key</button>
    </form>
  );
}
