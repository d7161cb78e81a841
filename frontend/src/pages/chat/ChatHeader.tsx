import { useEffect, useRef, useState, type ReactNode } from 'react';
import { call, Chat as GetChat, ChatSettings, ExportChat, ProviderModels, SaveChatExport, SetChatModel } from '../../backend';
import type { gui } from '../../backend';
import { useAgents } from '../../agents';
import { loadChats, modelChanged, remeasure, useChat } from '../../chat';
import { message } from '../../errors';
import { useConfigVersion } from '../../store';
import { usePopover, useWidth } from '../../layout';
import { useMenu } from '../../dismiss';
import { Icon } from '../../components/Icon';
import { ContextMeter } from './ContextMeter';
import { ToolPicker } from './ToolPicker';

/** COMPACT_BELOW is the header width (px) below which provider, model, tools and export go into the "⋯" menu. */
export const COMPACT_BELOW = 700;
/** STACK_BELOW is the header width (px) below which the title has a row of its own above the controls (they and a readable title do not fit one row). */
export const STACK_BELOW = 1000;

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
      {settings && <ModelPicker chatId={chatId} settings={settings} onError={setErr} room={compact ? 0 : width} />}
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

/**
 * modelWidth is the model field's CSS width in the header: as wide as the model's name (so a long
 * one is not cut to "fake-model-with-a"), from the usual 150 px up to a third of the header's
 * width; '' leaves it to the style sheet (the "⋯" menu, or no width known).
 */
export function modelWidth(model: string, room: number): string {
  if (!(room > 0 && Number.isFinite(room))) return '';
  return `clamp(150px, ${model.length + 3}ch, ${Math.max(150, Math.round(room / 3))}px)`;
}

/**
 * ModelPicker is the chat's provider and model. room is the header's width (0 in the "⋯" menu):
 * the model field grows into it; the whole name is its tooltip. A change goes to the chat list too,
 * so New chat goes on with it.
 */
function ModelPicker({ chatId, settings: s, onError, room }: { chatId: string; settings: gui.ChatSettingsView; onError: (s: string) => void; room: number }) {
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
    modelChanged(chatId, p, m); // at once: a New chat pressed right after goes on with it
    call(() => SetChatModel(chatId, p, m)).then(() => remeasure(chatId), (e: unknown) => onError(message(e)));
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
        <input list="chat-models" value={model} placeholder="model name" title={model || undefined} style={{ width: modelWidth(model, room) || undefined }}
          onChange={(e) => setModel(e.target.value)}
          onBlur={() => save(prov, model)} onKeyDown={(e) => { if (e.key === 'Enter') save(prov, model); }} />
        <datalist id="chat-models">{models.map((m) => <option key={m} value={m} />)}</datalist>
      </label>
    </div>
  );
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
