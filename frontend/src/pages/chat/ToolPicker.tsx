// The chat header's "Tools: N" popover: the chat's servers and tools, the
// tool mode and whether tools are searched. (It was part of ChatHeader.tsx.)
import { useEffect, useMemo, useState } from 'react';
import { call, ChatOptionsOf, SetChatOptions, ToolModeStatus, Tools, ToolSearchStatus } from '../../backend';
import type { gui, host } from '../../backend';
import type { Agent } from '../../agents';
import { message } from '../../errors';
import { usePopover } from '../../layout';
import { remeasure } from '../../chat';
import { useDismiss } from '../../dismiss';
import { ToolSearchNote, toolSearchBadge, type SearchDecision } from './ToolSearchNote';
import { kTokens, modeLabel, ToolModeChoice } from '../../components/ToolModeChoice';
import { count } from '../../plural';

type ToolItem = Pick<gui.ToolView, 'name' | 'server' | 'tool'>;

/** FILTER_FROM is how many tools make the popover start with a filter field (fewer fit on a screen as they are). */
export const FILTER_FROM = 16;

/**
 * matching keeps the servers and tools a filter names (case does not
 * matter): a server whose name matches with all its tools, else only its
 * tools whose names match. An empty filter keeps everything.
 */
export function matching(groups: [string, ToolItem[]][], filter: string): [string, ToolItem[]][] {
  const q = filter.trim().toLowerCase();
  if (!q) return groups;
  return groups.flatMap(([server, ts]): [string, ToolItem[]][] => {
    if (server.toLowerCase().includes(q)) return [[server, ts]];
    const hit = ts.filter((t) => t.tool.toLowerCase().includes(q));
    return hit.length > 0 ? [[server, hit]] : [];
  });
}

/**
 * ToolPicker is the chat's "Tools: N" button and its popover. Opened,
 * focus moves to its first control (the filter field when there are many
 * tools); Escape closes it and focus returns to the button (useDismiss).
 */
export function ToolPicker({ chatId, onError, agent, settings }: { chatId: string; onError: (s: string) => void; agent?: Agent; settings: gui.ChatSettingsView | null }) {
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
  const [filter, setFilter] = useState('');
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
  const many = tools.length >= FILTER_FROM;
  const shown = useMemo(() => matching(groups, many ? filter : ''), [groups, filter, many]);
  const active = tools.filter((t) => !offServers.includes(t.server) && !offTools.includes(t.name)).length;
  const save = (servers: string[], ts: string[], toolMode = chatMode) => {
    setOffServers(servers);
    setOffTools(ts);
    setChatMode(toolMode);
    call(() => SetChatOptions(chatId, { offServers: servers, offTools: ts, toolMode })).then(() => { setAsked((n) => n + 1); remeasure(chatId); }, (e: unknown) => onError(message(e)));
  };
  const toggle = (list: string[], v: string) => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);
  const { anchor, pop } = usePopover(open, `${tools.length} ${filter}`);
  useDismiss(open, () => setOpen(false), { panel: pop, opener: anchor });
  useEffect(() => {
    if (!open) setFilter('');
  }, [open]);
  return (
    <div className="chat-tools">
      <button type="button" ref={anchor} aria-expanded={open} onClick={() => setOpen(!open)}>
        Tools: {active}
        {mode && mode.mode !== 'direct' && <span className="badge" title={`Tools are offered in ${mode.mode} mode`}>{mode.mode === 'code' ? 'code mode' : 'code + direct'}</span>}
        {agent?.delegate ? <span className="muted small"> via {count(groups.filter(([s]) => !offServers.includes(s)).length, 'specialist')}</span>
          : toolSearchBadge(search) && <span className="badge warn" title={search?.reason}>{toolSearchBadge(search)}</span>}
      </button>
      {open && (
        <div className="popover tools-popover" ref={pop} role="dialog" aria-label="Tools for this chat">
          {many && (
            <div className="tools-filter">
              <input type="search" aria-label="Filter tools" placeholder={`Filter ${count(tools.length, 'tool')}`} value={filter}
                onChange={(e) => setFilter(e.target.value)} />
              {filter.trim() && <span className="muted small" role="status">{shown.length === 0 ? 'No tool or server matches.' : count(shown.reduce((n, [, ts]) => n + ts.length, 0), 'tool') + ' shown'}</span>}
            </div>
          )}
          {agent && <p className="small muted">The agent {agent.name} uses these servers{agent.delegate ? ': the model asks one specialist (ask_<server>) per server, each with only its own tools' : ''}.</p>}
          {!agent?.delegate && <ToolSearchNote decision={search} />}
          {!agent?.delegate && (
            <ToolModeChoice name={`tool-mode-${chatId}`} legend="How the model calls tools" value={chatMode}
              auto={mode ? autoNote(mode, agent) : 'as the settings say'} onChange={(m) => save(offServers, offTools, m)} />
          )}
          {shown.map(([server, ts]) => {
            const on = !offServers.includes(server);
            return (
              <fieldset key={server}>
                <legend>
                  <label>
                    <input type="checkbox" checked={on} onChange={() => save(toggle(offServers, server), offTools)} />
                    {server} <span className="muted small">({count((groups.find(([s]) => s === server)?.[1] ?? ts).length, 'tool')})</span>
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
