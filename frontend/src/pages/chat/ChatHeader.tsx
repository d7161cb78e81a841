import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { call, Chat as GetChat, ChatOptionsOf, ChatSettings, ExportChat, ProviderModels, SaveChatExport, SetChatModel, SetChatOptions, ToolModeStatus, Tools, ToolSearchStatus } from '../../backend';
import type { host } from '../../backend';
import type { gui } from '../../backend';
import { useAgents, type Agent } from '../../agents';
import { loadChats, useChat } from '../../chat';
import { message } from '../../errors';
import { useConfigVersion } from '../../store';
import { usePopover, useWidth } from '../../layout';
import { useMenu } from '../../dismiss';
import { Icon } from '../../components/Icon';
import { ToolSearchNote, toolSearchBadge, type SearchDecision } from './ToolSearchNote';
import { ContextMeter } from './ContextMeter';
import { kTokens, modeLabel, ToolModeChoice } from '../../components/ToolModeChoice';
import { count } from '../../plural';

/** COMPACT_BELOW is the header width (px) below which provider, model, tools and export go into the "⋯" menu. */
export const COMPACT_BELOW = 700;
/** STACK_BELOW is the header width (px) below which the title has a row of its own above the controls (they and a readable title do not fit one row). */
export const STACK_BELOW = 1000;

type ToolItem = Pick<gui.ToolView, 'name' | 'server' | 'tool'>;

/** ChatHeader: the open chat's model, its active servers/tools, and export. */
export function ChatHeader({ chatId }: { chatId: string }) {
  const title = useChat((s) => s.chats.find((c) => c.id === chatId)?.title ?? '');
  const agentId = useChat((s) => s.chats.find((c) => c.id === chatId)?.agent ?? '');
  const { agents, loaded: agentsLoaded } = useAgents();
  const agent = agents.find((a) => a.id === agentId);
  // A chat whose agent was deleted goes on with the default set-up (every server): it says so.
  const agentGone = !!agentId && agentsLoaded && !agent;
  const missing = agent?.missing ?? [];
  const [err, setErr] = useState('');
  const [settings, setSettings] = useState<gui.ChatSettingsView | null>(null);
  const configVersion = useConfigVersion();
  useEffect(() => {
    call(() => ChatSettings()).then(setSettings, (e: unknown) => setErr(message(e)));
  }, [chatId, configVersion]);
  const ref = useRef<HTMLElement>(null);
  const width = useWidth(ref);
  const compact = width < COMPACT_BELOW;
  const stacked = !compact && width < STACK_BELOW;
  const controls = (
    <>
      {settings && <ModelPicker chatId={chatId} settings={settings} onError={setErr} />}
      <ToolPicker chatId={chatId} onError={setErr} agent={agent} settings={settings} />
      <ExportMenu chatId={chatId} onError={setErr} />
    </>
  );
  return (
    <header className={`chat-header${compact ? ' compact' : ''}${stacked ? ' stacked' : ''}`} ref={ref}>
      <h2 className="chat-title" title={title || undefined}>{title || 'Untitled chat'}</h2>
      {agent && (
        <span className="badge agent-badge" aria-label={`Agent ${agent.name}`} title={`${agent.name}${agent.delegate ? ': delegates to one sub-agent per server' : ''}`}>
          {agent.name}{agent.delegate ? ' · delegate' : ''}
        </span>
      )}
      <ContextMeter chatId={chatId} />
      {compact ? <MoreMenu>{controls}</MoreMenu> : controls}
      {agentGone && (
        <p className="agent-note small" role="note" aria-label="Agent deleted">
          This chat's agent was deleted: it goes on with the default set-up — every server, and the prompt and approval policies of Settings.
          Start a chat from another agent on the <a href="#/agents">Agents</a> page to keep a narrower one.
        </p>
      )}
      {missing.length > 0 && (
        <p className="agent-note small warn" role="note" aria-label="Agent servers not set up">
          {agent?.name}'s {missing.length === 1 ? 'server' : 'servers'} {missing.join(', ')} {missing.length === 1 ? 'is' : 'are'} not set up: this chat runs without {missing.length === 1 ? 'it' : 'them'}.
          Add {missing.length === 1 ? 'it' : 'them'} on the <a href="#/servers">Servers</a> page, or take {missing.length === 1 ? 'it' : 'them'} out of the agent on the <a href="#/agents">Agents</a> page.
        </p>
      )}
      {err && <div className="alert small" role="alert">{err}</div>}
    </header>
  );
}

/**
 * MoreMenu is the narrow header's "⋯" button: the chat's controls in a
 * panel that stays inside the window; Esc or a press outside closes it.
 */
function MoreMenu({ children }: { children: ReactNode }) {
  const { open, setOpen, anchor, pop } = useMenu();
  return (
    <div className="chat-more">
      <button type="button" ref={anchor} className="icon-button" aria-label="Chat options" aria-expanded={open} onClick={() => setOpen(!open)}>
        <Icon name="more" size={18} />
      </button>
      {open && (
        <div ref={pop} className="popover chat-menu" role="dialog" aria-label="Chat options">
          {children}
        </div>
      )}
    </div>
  );
}

function ModelPicker({ chatId, settings: s, onError }: { chatId: string; settings: gui.ChatSettingsView; onError: (s: string) => void }) {
  const providers = s.providers.map((p) => ({ name: p.name, defaultModel: p.defaultModel }));
  const [prov, setProv] = useState('');
  const [model, setModel] = useState('');
  const [models, setModels] = useState<string[]>([]);
  useEffect(() => {
    call(() => GetChat(chatId)).then((c) => {
      const p = c.provider || s.defaultProvider;
      setProv(p);
      setModel(c.model || s.providers.find((x) => x.name === p)?.defaultModel || '');
    }, (e: unknown) => onError(message(e)));
  }, [chatId, s, onError]);
  useEffect(() => {
    if (!prov) return;
    call(() => ProviderModels(prov)).then((ms) => setModels((ms ?? []).map((m) => m.id)), () => setModels([]));
  }, [prov]);
  const save = (p: string, m: string) => {
    call(() => SetChatModel(chatId, p, m)).catch((e: unknown) => onError(message(e)));
  };
  if (providers.length === 0) {
    return <a className="small" href="#/settings/models">Set up a model provider</a>;
  }
  return (
    <div className="model-picker row">
      <label className="small">
        <span className="picker-label">Provider</span>
        <select value={prov} onChange={(e) => {
          const p = e.target.value;
          const m = providers.find((x) => x.name === p)?.defaultModel ?? '';
          setProv(p);
          setModel(m);
          save(p, m);
        }}>
          {providers.map((p) => <option key={p.name} value={p.name}>{p.name}</option>)}
          {/* The chat's own provider when it is gone (its agent's was removed): shown as such, not as the first one. */}
          {prov && !providers.some((p) => p.name === prov) && <option value={prov}>{prov} (not set up)</option>}
        </select>
      </label>
      <label className="small">
        <span className="picker-label">Model</span>
        <input list="chat-models" value={model} placeholder="model name" onChange={(e) => setModel(e.target.value)}
          onBlur={() => save(prov, model)} onKeyDown={(e) => { if (e.key === 'Enter') save(prov, model); }} />
        <datalist id="chat-models">{models.map((m) => <option key={m} value={m} />)}</datalist>
      </label>
    </div>
  );
}

function ToolPicker({ chatId, onError, agent, settings }: { chatId: string; onError: (s: string) => void; agent?: Agent; settings: gui.ChatSettingsView | null }) {
  const [open, setOpen] = useState(false);
  // Whether the next turn searches its tools, and why: asked again when the
  // chat's tools, model or the settings change (and when the popover opens).
  const [search, setSearch] = useState<SearchDecision | null>(null);
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    call(() => ToolSearchStatus(chatId)).then(setSearch, () => setSearch(null));
  }, [chatId, settings, asked, open]);
  const [tools, setTools] = useState<ToolItem[]>([]);
  const [offServers, setOffServers] = useState<string[]>([]);
  const [offTools, setOffTools] = useState<string[]>([]);
  // The chat's own tool mode ("" leaves it to the agent, the settings, the
  // model's window) and the one the next turn uses, with who chose it.
  const [chatMode, setChatMode] = useState('');
  const [mode, setMode] = useState<host.ToolMode | null>(null);
  useEffect(() => {
    call(() => ToolModeStatus(chatId)).then(setMode, () => setMode(null));
  }, [chatId, settings, asked, open]);
  useEffect(() => {
    void Promise.all([call(() => Tools()), call(() => ChatOptionsOf(chatId))]).then(([list, o]) => {
      setTools((list.tools ?? []).filter((t) => agentAllows(agent, t)).map((t) => ({ name: t.name, server: t.server, tool: t.tool })));
      setOffServers(o.offServers ?? []);
      setOffTools(o.offTools ?? []);
      setChatMode(o.toolMode ?? '');
    }, (e: unknown) => onError(message(e)));
  }, [chatId, onError, agent]);
  const groups = useMemo(() => {
    const m = new Map<string, ToolItem[]>();
    for (const t of tools) m.set(t.server, [...(m.get(t.server) ?? []), t]);
    return [...m.entries()];
  }, [tools]);
  const active = tools.filter((t) => !offServers.includes(t.server) && !offTools.includes(t.name)).length;
  const save = (servers: string[], ts: string[], toolMode = chatMode) => {
    setOffServers(servers);
    setOffTools(ts);
    setChatMode(toolMode);
    call(() => SetChatOptions(chatId, { offServers: servers, offTools: ts, toolMode })).then(() => setAsked((n) => n + 1), (e: unknown) => onError(message(e)));
  };
  const toggle = (list: string[], v: string) => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);
  const { anchor, pop } = usePopover(open, tools.length);
  return (
    // Esc closes the popover from its button too (focus stays there after a click).
    <div className="chat-tools" onKeyDown={(e) => { if (e.key === 'Escape' && open) { e.stopPropagation(); setOpen(false); anchor.current?.focus(); } }}>
      <button type="button" ref={anchor} aria-expanded={open} onClick={() => setOpen(!open)}>
        Tools: {active}
        {mode && mode.mode !== 'direct' && <span className="badge" title={`Tools are offered in ${mode.mode} mode`}>{mode.mode === 'code' ? 'code mode' : 'code + direct'}</span>}
        {agent?.delegate ? <span className="muted small"> via {count(groups.filter(([s]) => !offServers.includes(s)).length, 'specialist')}</span>
          : toolSearchBadge(search) && <span className="badge warn" title={search?.reason}>{toolSearchBadge(search)}</span>}
      </button>
      {open && (
        <div className="popover tools-popover" ref={pop} role="dialog" aria-label="Tools for this chat">
          {agent && <p className="small muted">The agent {agent.name} uses these servers{agent.delegate ? ': the model asks one specialist (ask_<server>) per server, each with only its own tools' : ''}.</p>}
          {!agent?.delegate && <ToolSearchNote decision={search} />}
          {!agent?.delegate && (
            <ToolModeChoice name={`tool-mode-${chatId}`} legend="How the model calls tools" value={chatMode}
              auto={mode ? autoNote(mode, agent) : 'as the settings say'} onChange={(m) => save(offServers, offTools, m)} />
          )}
          {groups.map(([server, ts]) => {
            const on = !offServers.includes(server);
            return (
              <fieldset key={server}>
                <legend>
                  <label>
                    <input type="checkbox" checked={on} onChange={() => save(toggle(offServers, server), offTools)} />
                    {server} <span className="muted small">({count(ts.length, 'tool')})</span>
                  </label>
                </legend>
                {on && ts.map((t) => (
                  <label key={t.name} className="small tool-toggle">
                    <input type="checkbox" checked={!offTools.includes(t.name)} onChange={() => save(offServers, toggle(offTools, t.name))} />
                    {t.tool}
                  </label>
                ))}
              </fieldset>
            );
          })}
          {groups.length === 0 && <p className="muted small">No server has tools running. Add or start servers on the <a href="#/servers">Servers</a> page.</p>}
        </div>
      )}
    </div>
  );
}

/** autoNote says what "Automatic" means for this chat: what the agent or the settings chose, else the default for the model's window. */
function autoNote(m: host.ToolMode, agent?: Agent): string {
  const window = m.window > 0 ? `its context window is ${kTokens(m.window)} tokens` : 'its context window is not known';
  const byModel = `${modeLabel(m.default).toLowerCase()} for this model (${window}; code mode at ${kTokens(m.codeWindow)} or less)`;
  switch (m.by) {
    case 'agent':
      return `${modeLabel(m.mode).toLowerCase()}, as the agent ${agent?.name ?? ''} says`;
    case 'settings':
      return `${modeLabel(m.mode).toLowerCase()}, as Settings → Code mode says`;
    case 'model':
      return byModel;
    default:
      return `the agent's or the settings' choice, else ${byModel}`;
  }
}

/** agentAllows mirrors chat.Agent.Allows: the agent's servers, narrowed to its tools where it names some. */
function agentAllows(agent: Agent | undefined, t: { name: string; server: string }): boolean {
  if (!agent) return true;
  if (!agent.servers.includes(t.server)) return false;
  const named = (agent.tools ?? []).filter((n) => n.startsWith(`${t.server}__`));
  return named.length === 0 || named.includes(t.name);
}

function ExportMenu({ chatId, onError }: { chatId: string; onError: (s: string) => void }) {
  const [text, setText] = useState<string | null>(null);
  const [format, setFormat] = useState('markdown');
  const [saved, setSaved] = useState('');
  const show = (f: string) => {
    setFormat(f);
    setSaved('');
    call(() => ExportChat(chatId, f)).then(setText, (e: unknown) => onError(message(e)));
  };
  const { anchor, pop } = usePopover(text !== null, format);
  // Closed, focus goes back to the Export button (the one that had it is gone).
  const close = () => { setText(null); setSaved(''); anchor.current?.focus(); void loadChats(); };
  const save = () => {
    call(() => SaveChatExport(chatId, format)).then((path) => { if (path) setSaved(path); }, (e: unknown) => onError(message(e)));
  };
  return (
    <div className="export" onKeyDown={(e) => { if (e.key === 'Escape' && text !== null) { e.stopPropagation(); close(); } }}>
      <button type="button" ref={anchor} aria-expanded={text !== null} onClick={() => (text === null ? show('markdown') : close())}>Export</button>
      {text !== null && (
        <div className="popover export-view" ref={pop} role="dialog" aria-label="Export chat">
          <div className="row">
            <div className="segmented" role="group" aria-label="Format">
              <button type="button" aria-pressed={format === 'markdown'} onClick={() => show('markdown')}>Markdown</button>
              <button type="button" aria-pressed={format === 'json'} onClick={() => show('json')}>JSON</button>
            </div>
            <span className="spacer" />
            <button type="button" onClick={() => void navigator.clipboard?.writeText(text)}><Icon name="copy" /> Copy</button>
            <button type="button" className="primary" onClick={save}><Icon name="save" /> Save to file…</button>
            <button type="button" className="icon-button" aria-label="Close export" onClick={close}><Icon name="close" /></button>
          </div>
          {saved && <p className="notice small" role="status">Saved to <code>{saved}</code></p>}
          <pre aria-label="Exported chat">{text}</pre>
        </div>
      )}
    </div>
  );
}
