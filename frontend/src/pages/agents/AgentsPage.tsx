import { useEffect, useRef, useState } from 'react';
import { call, ChatSettings, hasBackend, Tools } from '../../backend';
import type { gui } from '../../backend';
import { deleteAgent, duplicateAgent, emptyAgent, nameProblem, saveAgent, serverPolicy, useAgents, withServerPolicy, type Agent, type Policy } from '../../agents';
import { newChat } from '../../chat';
import { useServers } from '../../servers';
import { message } from '../../errors';
import { store } from '../../store';
import { AgentSkills } from './AgentSkills';
import { AgentImport } from './AgentImport';
import { TOOL_MODES } from '../../components/ToolModeChoice';
import { count } from '../../plural';
import { FieldBox, ProblemCount, useSubmitProblems } from '../../components/FormField';
import { StatusBadge } from '../../components/StatusBadge';

/** AgentsPage lists the agents and edits them; a chat starts from one. */
export function AgentsPage() {
  const { agents, loaded, error } = useAgents();
  const [editing, setEditing] = useState<Agent | null>(null);
  const [importing, setImporting] = useState(false);
  const [err, setErr] = useState('');
  const duplicate = (a: Agent) => {
    setErr('');
    duplicateAgent(a.id).then(setEditing, (e: unknown) => setErr(message(e)));
  };
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-head">
        <h1 id="page-title">Agents</h1>
        {/* One group: a third child of the space-between head sat alone in its middle. */}
        <div className="row">
          <button type="button" onClick={() => setImporting(true)} disabled={!hasBackend() || importing}>Import…</button>
          <button type="button" className="primary" onClick={() => setEditing(emptyAgent())} disabled={!hasBackend() || editing !== null}>New agent</button>
        </div>
      </div>
      <p className="muted">An agent is a system prompt, a model, the servers it may use and how it asks before acting. With <em>delegate</em>, each server becomes one specialist the model asks, so it sees a few tools instead of hundreds.</p>
      {(error || err) && <div className="alert" role="alert">{error || err}</div>}
      {importing && <AgentImport onDone={() => setImporting(false)} />}
      {editing && <AgentForm key={editing.id || 'new'} initial={editing} onDone={() => setEditing(null)} />}
      {loaded && agents.length === 0 && !editing && !importing && <div className="placeholder"><p>No agents yet. Press New agent to make one, or Import… to bring Claude Code's.</p></div>}
      <ul className="agent-list" aria-label="Agents">
        {agents.map((a) => <AgentRow key={a.id} agent={a} onEdit={() => setEditing(a)} onDuplicate={() => duplicate(a)} />)}
      </ul>
    </section>
  );
}

function AgentRow({ agent: a, onEdit, onDuplicate }: { agent: Agent; onEdit: () => void; onDuplicate: () => void }) {
  const [confirm, setConfirm] = useState(false);
  const [err, setErr] = useState('');
  const start = async () => {
    const id = await newChat(a.id);
    if (id) store.navigate('chat');
  };
  const missing = a.missing ?? [];
  return (
    <li className="agent-row" aria-label={a.name}>
      <div className="server-head">
        <strong className="agent-name" title={a.name}>{a.name}</strong>
        {a.delegate && <span className="badge" title="each server is a sub-agent">delegate</span>}
        {a.toolMode && !a.delegate && <span className="badge" title="how its chats offer the tools">{a.toolMode === 'both' ? 'code + direct' : `${a.toolMode} mode`}</span>}
        <span className="muted small">{a.model || 'default model'}</span>
        {a.providerMissing && <span className="badge warn" title="Its chats fail until you choose another provider (Edit) or add it in Settings → Models">provider {a.provider} not set up</span>}
        <span className="spacer" />
        <button type="button" className="primary" onClick={() => void start()}>Start chat</button>
        <button type="button" onClick={onEdit}>Edit</button>
        <button type="button" onClick={onDuplicate}>Duplicate</button>
        <button type="button" onClick={() => setConfirm(true)} disabled={confirm}>Delete</button>
      </div>
      {a.description && <p className="small agent-description">{a.description}</p>}
      <div className="tags" aria-label={`Servers of ${a.name}`}>
        {a.servers.length === 0 ? <span className="muted small">no tools</span> : a.servers.map((s) => missing.includes(s)
          ? <span key={s} className="tag missing" title="Not set up: its chats run without it. Add it on the Servers page, or take it out of the agent (Edit).">{s} (not set up)</span>
          : <span key={s} className="tag">{s}</span>)}
      </div>
      {confirm && (
        <div className="confirm" role="alertdialog" aria-label={`Delete ${a.name}?`}>
          <span>Delete the agent <strong>{a.name}</strong>? Its chats stay and go on with the default set-up: every server, and the prompt and approval policies of Settings.</span>
          <button type="button" className="danger" autoFocus onClick={() => deleteAgent(a.id).catch((e: unknown) => setErr(message(e)))}>Delete</button>
          <button type="button" onClick={() => setConfirm(false)}>Cancel</button>
        </div>
      )}
      {err && <div className="alert" role="alert">{err}</div>}
    </li>
  );
}

type ToolItem = Pick<gui.ToolView, 'name' | 'server' | 'tool'>;

/** AgentForm creates or edits an agent. */
function AgentForm({ initial, onDone }: { initial: Agent; onDone: () => void }) {
  const [a, setA] = useState<Agent>(initial);
  const [err, setErr] = useState('');
  const [providerList, setProviders] = useState<{ name: string; defaultModel: string }[] | null>(null);
  const providers = providerList ?? [];
  const [tools, setTools] = useState<ToolItem[]>([]);
  const { servers } = useServers();
  // Servers the agent names that are not set up: listed (ticked) so they can be taken out.
  const missing = initial.missing ?? [];
  // A provider that is not set up shows as such (a select without its option showed "Default provider" and saved the gone one).
  const providerGone = !!a.provider && (providerList
    ? !providerList.some((p) => p.name.toLowerCase() === a.provider!.toLowerCase())
    : !!initial.providerMissing && a.provider === initial.provider);
  const badName = nameProblem(a.name);
  // Set by a submit: an empty name is a problem once the user tried to save.
  const [emptyName, setEmptyName] = useState(false);
  const nameProblems = [...(emptyName && !a.name.trim() ? ['Give the agent a name: the chat list and the New chat menu show it.'] : []), ...(badName ? [badName] : [])];
  const form = useRef<HTMLFormElement>(null);
  const submitted = useSubmitProblems(form);
  useEffect(() => {
    call(() => ChatSettings()).then((s) => setProviders(s.providers.map((p) => ({ name: p.name, defaultModel: p.defaultModel }))), () => undefined);
    call(() => Tools()).then((l) => setTools(l.tools.map((t) => ({ name: t.name, server: t.server, tool: t.tool }))), () => undefined);
  }, []);
  const patch = (p: Partial<Agent>) => {
    setA((cur) => ({ ...cur, ...p }));
    submitted.clear();
  };
  const toggleServer = (name: string, on: boolean) => {
    const next = on ? [...a.servers, name] : a.servers.filter((s) => s !== name);
    // A server taken out leaves no tools, skills or policies behind for one added later under its name.
    const policies = Object.fromEntries(Object.entries(a.policies ?? {}).filter(([k]) => next.includes(k.split('__')[0] ?? '')));
    patch({
      servers: next, tools: (a.tools ?? []).filter((t) => next.includes(t.split('__')[0] ?? '')),
      skills: (a.skills ?? []).filter((k) => next.includes(k.split('/')[0] ?? '')), policies,
    });
  };
  const toggleTool = (name: string, on: boolean) => {
    const cur = a.tools ?? [];
    patch({ tools: on ? [...cur, name] : cur.filter((t) => t !== name) });
  };
  const submit = async () => {
    setErr('');
    if (!a.name.trim() || badName) {
      setEmptyName(true);
      submitted.failed(['Name']);
      return;
    }
    try {
      await saveAgent(a);
      onDone();
    } catch (e) {
      setErr(message(e));
    }
  };
  return (
    <form className="card agent-form" aria-label={initial.id ? `Edit ${initial.name}` : 'New agent'} noValidate ref={form} onSubmit={(e) => { e.preventDefault(); void submit(); }}
      onKeyDown={(e) => { if (e.key === 'Escape') onDone(); }}>
      <FieldBox label="Name" problems={nameProblems}>
        {(f) => <input {...f} value={a.name} autoFocus onChange={(e) => patch({ name: e.target.value })} />}
      </FieldBox>
      <label>Description <input value={a.description ?? ''} onChange={(e) => patch({ description: e.target.value })} /></label>
      <label>System prompt <textarea rows={4} value={a.system ?? ''} onChange={(e) => patch({ system: e.target.value })} /></label>
      <div className="row">
        <label>Provider
          <select value={a.provider ?? ''} aria-invalid={providerGone}
            onChange={(e) => patch(providerGone ? { provider: e.target.value, model: '' } : { provider: e.target.value })}>
            <option value="">Default provider</option>
            {providers.map((p) => <option key={p.name} value={p.name}>{p.name}</option>)}
            {providerGone && <option value={a.provider}>{a.provider} (not set up)</option>}
          </select>
        </label>
        <label>Model <input value={a.model ?? ''} placeholder={providers.find((p) => p.name === a.provider)?.defaultModel || 'provider default'} onChange={(e) => patch({ model: e.target.value })} /></label>
      </div>
      {providerGone && <p className="small bad" role="status">The provider {a.provider} is not set up: its chats fail until you choose another here (its model too) or add it in Settings → Models.</p>}
      <fieldset>
        <legend>Servers it may use</legend>
        {servers.length === 0 && missing.length === 0 && <p className="muted small">No servers yet: add some on the Servers page.</p>}
        {missing.map((name) => (
          <div key={name} className="agent-server missing">
            <label className="check">
              <input type="checkbox" checked={a.servers.includes(name)} onChange={(e) => toggleServer(name, e.target.checked)} />
              {name} <span className="small bad">not set up: its chats run without it; untick it, or add it on the Servers page</span>
            </label>
          </div>
        ))}
        {servers.map((s) => {
          const on = a.servers.includes(s.name);
          const own = tools.filter((t) => t.server === s.name);
          const chosen = (a.tools ?? []).filter((t) => t.startsWith(`${s.name}__`));
          // Tools it names that the ready server does not list (a typo, renamed since): shown ticked, so they can be unticked.
          const unoffered = s.state === 'ready' && own.length > 0 ? chosen.filter((t) => !own.some((o) => o.name === t)) : [];
          return (
            <div key={s.name} className="agent-server">
              <label className="check">
                <input type="checkbox" checked={on} onChange={(e) => toggleServer(s.name, e.target.checked)} />
                {s.name} {s.state === 'ready' ? <span className="muted small">{count(s.toolCount, 'tool')}</span> : <StatusBadge state={s.state} />}
              </label>
              {s.state !== 'ready' && <ServerNote server={s} />}
              {on && (
                <>
                  <label className="small">Approval
                    <select aria-label={`Approval for ${s.name}`} value={serverPolicy(a, s.name)} onChange={(e) => setA(withServerPolicy(a, s.name, e.target.value as Policy | ''))}>
                      <option value="">as in Settings</option>
                      <option value="ask">ask every time</option>
                      <option value="allow">always allow</option>
                      <option value="deny">never</option>
                    </select>
                  </label>
                  {own.length > 0 && (
                    <details open={unoffered.length > 0}>
                      <summary className="small">Only some tools ({chosen.length || 'all'} chosen)</summary>
                      {unoffered.map((name) => (
                        <label key={name} className="check small">
                          <input type="checkbox" checked onChange={(e) => toggleTool(name, e.target.checked)} />
                          {name.slice(s.name.length + 2)} <span className="bad">{s.name} does not offer it: untick it{unoffered.length === chosen.length ? ', or its chats get none of this server\'s tools' : ''}</span>
                        </label>
                      ))}
                      {own.map((t) => (
                        <label key={t.name} className="check small">
                          <input type="checkbox" checked={(a.tools ?? []).includes(t.name)} onChange={(e) => toggleTool(t.name, e.target.checked)} />
                          {t.tool}
                        </label>
                      ))}
                    </details>
                  )}
                  <AgentSkills server={s.name} chosen={a.skills ?? []} onChange={(skills) => patch({ skills })} />
                </>
              )}
            </div>
          );
        })}
      </fieldset>
      <label className="check">
        <input type="checkbox" checked={!!a.delegate} onChange={(e) => patch({ delegate: e.target.checked })} />
        Delegate: each server is a sub-agent (ask_&lt;server&gt;) with only its own tools
      </label>
      <label>Tool mode
        <select value={a.toolMode ?? ''} disabled={!!a.delegate} aria-describedby="agent-tool-mode-note" onChange={(e) => patch({ toolMode: e.target.value })}>
          <option value="">As in Settings → Code mode</option>
          {TOOL_MODES.map((m) => <option key={m.mode} value={m.mode}>{m.label}</option>)}
        </select>
      </label>
      <p id="agent-tool-mode-note" className="muted small">
        {a.delegate
          ? <>A delegating agent's model sees one ask_&lt;server&gt; tool per server, and each specialist calls its server's tools directly: the tool mode does not apply{a.toolMode ? ` (it stays ${a.toolMode} for when delegate is off)` : ''}.</>
          : TOOL_MODES.find((m) => m.mode === a.toolMode)?.note ?? 'How its chats offer the tools; a chat can still choose its own in its Tools menu.'}
      </p>
      {err && <div className="alert" role="alert">{err}</div>}
      <div className="row">
        <button type="submit" className="primary">Save agent</button>
        <button type="button" onClick={onDone}>Cancel</button>
        <ProblemCount summary={submitted.summary} />
      </div>
    </form>
  );
}

/**
 * ServerNote says why a server the agent may use offers no tools now (it
 * failed to start, is stopped or waits for a login), in the Servers page's
 * words, with the way there.
 */
function ServerNote({ server: s }: { server: { name: string; state: string; error: string } }) {
  const why = s.error ? s.error.split('\n')[0] : s.state === 'disabled' ? 'Disabled: its chats run without it until it is enabled.' : '';
  return (
    <p className="small agent-server-note">
      {why && <span className={s.state === 'error' ? 'bad' : 'muted'}>{why} </span>}
      <a href="#/servers" onClick={(e) => { e.preventDefault(); store.navigate('servers'); }}>Open Servers</a>
    </p>
  );
}
