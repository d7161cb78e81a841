import { useEffect, useMemo, useState } from 'react';
import { ElicitForm } from '../../components/ElicitForm';
import { SchemaForm } from '../../components/LazySchemaForm';
import { ToolPolicy } from './ToolPolicy';
import { ToolResult } from './ToolResult';
import { ToolApp } from '../../mcpapps/ToolApp';
import { toolResult } from '../../mcpapps/toolApps';
import { isRecord } from '../../json';
import { Icon, ServerIcon } from '../../components/Icon';
import { RulesList } from './RulesList';
import { WarningBadge, WarningList } from '../../components/ToolSafety';
import { useChat, watchRequests } from '../../chat';
import { callTool, listTools, type CallResult, type ToolList, type ToolView } from '../../servers';
import { message } from '../../errors';
import { effectLabel } from '../../safety';

type FormData = Record<string, unknown>;

/** ServerRequests shows what servers ask while a tool runs from this page (forms, pages to open): requests of no chat. */
function ServerRequests() {
  useEffect(watchRequests, []);
  const elicits = useChat((s) => s.elicits).filter((e) => !e.chatId);
  return <>{elicits.map((e) => <ElicitForm key={e.id} req={e} />)}</>;
}

/** ToolsPage is the playground: pick a server and tool, fill its form, run it. */
export function ToolsPage() {
  const [list, setList] = useState<ToolList | null>(null);
  const [loadErr, setLoadErr] = useState('');
  const [server, setServer] = useState('');
  const [selected, setSelected] = useState('');
  const [query, setQuery] = useState('');

  const load = () => {
    setLoadErr('');
    listTools().then(
      (l) => {
        setList(l);
        setServer((cur) => cur || l.tools[0]?.server || '');
      },
      (e: unknown) => setLoadErr(message(e)),
    );
  };
  useEffect(load, []);

  const servers = useMemo(() => [...new Set((list?.tools ?? []).map((t) => t.server))], [list]);
  const tools = query.trim()
    ? filterTools(list?.tools ?? [], query)
    : (list?.tools ?? []).filter((t) => t.server === server);
  const tool = (list?.tools ?? []).find((t) => t.name === selected);
  // A tool picked from a search across servers makes its server the one
  // chosen, so that clearing the search shows it among its own tools.
  const pick = (name: string) => {
    setSelected(name);
    const t = list?.tools.find((x) => x.name === name);
    if (t) setServer(t.server);
  };

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Tools</h1>
      <p className="muted">Pick a server and one of its tools, fill in the form generated from its schema, and run it.</p>
      {loadErr && <div className="alert" role="alert">{loadErr}</div>}
      <ServerRequests />
      <Unavailable errors={(list?.errors ?? []).filter((e) => !e.tool)} />
      <LeftOut errors={(list?.errors ?? []).filter((e) => e.tool)} />
      <div className="tools-layout">
        <div className="tool-picker">
          <label htmlFor="tool-search">Search every server's tools</label>
          <input id="tool-search" type="search" placeholder="Name or description" value={query} onChange={(e) => setQuery(e.target.value)} />
          <label htmlFor="tool-server">Server</label>
          <select
              id="tool-server"
              value={server}
              disabled={query.trim() !== ''}
              onChange={(e) => {
                setServer(e.target.value);
                setSelected('');
              }}
            >
              {servers.map((s) => (
                <option key={s} value={s}>{s}</option>
              ))}
          </select>
          <button type="button" onClick={load}>Refresh</button>
          {query.trim() !== '' && <p className="muted small" role="status">{tools.length === 0 ? 'No tool matches.' : `${tools.length} of ${list?.tools.length ?? 0} tools match.`}</p>}
          <ToolButtons tools={tools} selected={selected} onSelect={pick} searching={query.trim() !== ''} />
        </div>
        <div className="tool-detail">
          {tool ? <ToolRunner key={tool.name} tool={tool} /> : <p className="muted">Pick a tool to try it.</p>}
        </div>
      </div>
      <RulesList />
    </section>
  );
}

/**
 * filterTools keeps the tools whose name, title or description contain
 * every word of the query (any case), across every server.
 */
export function filterTools(tools: ToolView[], query: string): ToolView[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return tools.filter((t) => {
    const text = `${t.name} ${t.title} ${t.description}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/**
 * ToolButtons is the list of tools to pick from. It is one stop of the Tab
 * key (the selected tool, else the first): the arrow keys, Home and End
 * move between the tools, Enter or Space picks one, and the next Tab goes
 * on to its form instead of through every other tool of the server.
 */
function ToolButtons({ tools, selected, onSelect, searching }: { tools: ToolView[]; selected: string; onSelect: (name: string) => void; searching: boolean }) {
  const stop = tools.some((t) => t.name === selected) ? selected : tools[0]?.name;
  const move = (e: React.KeyboardEvent<HTMLUListElement>) => {
    const buttons = [...e.currentTarget.querySelectorAll('button')];
    const at = buttons.findIndex((b) => b === document.activeElement);
    const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: buttons.length - 1 }[e.key];
    if (to === undefined || at < 0) return;
    e.preventDefault();
    buttons[Math.max(0, Math.min(buttons.length - 1, to))]?.focus();
  };
  return (
    <ul className="tool-list" aria-label={searching ? 'Tools that match' : 'Tools of the server'} onKeyDown={move}>
      {tools.map((t) => (
        <li key={t.name}>
          <button
            type="button"
            className={t.name === selected ? 'selected' : ''}
            aria-pressed={t.name === selected}
            tabIndex={t.name === stop ? 0 : -1}
            onClick={() => onSelect(t.name)}
          >
            <ServerIcon src={t.icon} />{searching ? t.name : t.tool}{t.warnings?.length > 0 && <span className="warn-mark" title={t.warnings.map((w) => w.reason).join('; ')}> <Icon name="warning" size={13} label="has warnings" /></span>}
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * LeftOut names the tools left out of a listing whose server is running:
 * a tool withheld because its definition changed since it was trusted (or
 * a new one whose text looks suspicious) waits for Accept or Reject on the
 * Servers page; the server's other tools are listed.
 */
function LeftOut({ errors }: { errors: ToolList['errors'] }) {
  if (errors.length === 0) return null;
  return (
    <div className="alert alert-soft tools-left-out" role="status">
      <p>
        <strong>{errors.length === 1 ? '1 tool left out' : `${errors.length} tools left out`}</strong>: the other tools of {errors.length === 1 ? 'its server are' : 'their servers are'} listed.{' '}
        A changed tool stays withheld from chats and connected apps until you review it: <a href="#/servers">see Servers</a> and Accept or Reject the change under its server.
      </p>
      <ul>
        {errors.map((e) => <li key={`${e.server} ${e.tool ?? ''}`}><strong>{e.tool}</strong>: {leftOutReason(e)}</li>)}
      </ul>
    </div>
  );
}

/** leftOutReason is an error's reason without the "server: tool:" it starts with. */
function leftOutReason(e: ToolList['errors'][number]): string {
  const first = e.error.split('\n')[0] ?? '';
  const m = /^[^:]+: [^:]+: (.*)$/.exec(first);
  const reason = m?.[1] ?? first;
  return reason.split('; it is withheld until you review it')[0] ?? reason;
}

/**
 * Unavailable says in one line which servers listed no tools (they failed
 * to start, or still start), with the way to the Servers page, where they
 * are fixed; each one's error is a click away.
 */
function Unavailable({ errors }: { errors: ToolList['errors'] }) {
  if (errors.length === 0) return null;
  const line = (e: ToolList['errors'][number]) => {
    const first = e.error.split('\n')[0] ?? '';
    return first.startsWith(`${e.server}:`) ? first.slice(e.server.length + 1).trim() : first;
  };
  return (
    <div className="alert alert-soft tools-unavailable" role="status">
      <p>
        <strong>{errors.length === 1 ? '1 server unavailable' : `${errors.length} servers unavailable`}</strong>: {errors.length === 1 ? 'its' : 'their'} tools are not listed here.{' '}
        <a href="#/servers">See Servers</a> to fix {errors.length === 1 ? 'it' : 'them'} (Edit on each one).
      </p>
      <details>
        <summary>Why, server by server</summary>
        <ul>
          {errors.map((e) => <li key={e.server}><strong>{e.server}</strong>: {line(e)}</li>)}
        </ul>
      </details>
    </div>
  );
}

function parseSchema(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { type: 'object' };
  }
}

function ToolRunner({ tool }: { tool: ToolView }) {
  const schema = useMemo(() => parseSchema(tool.inputSchema), [tool.inputSchema]);
  const [data, setData] = useState<FormData>({});
  const [raw, setRaw] = useState(false);
  const [rawText, setRawText] = useState('{}');
  const [rawErr, setRawErr] = useState('');
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<CallResult | null>(null);
  const [callErr, setCallErr] = useState('');
  const [ran, setRan] = useState({ n: 0, args: '{}' }); // each run renders a fresh app

  const run = async (args: FormData) => {
    setRan((r) => ({ n: r.n + 1, args: JSON.stringify(args) }));
    setRunning(true);
    setCallErr('');
    setResult(null);
    try {
      setResult(await callTool(tool.name, JSON.stringify(args)));
    } catch (e) {
      setCallErr(message(e));
    } finally {
      setRunning(false);
    }
  };

  const toggleRaw = () => {
    if (!raw) setRawText(JSON.stringify(data, null, 2));
    else {
      try {
        const v: unknown = JSON.parse(rawText);
        if (isRecord(v)) setData(v);
      } catch {
        /* keep the form's data */
      }
    }
    setRawErr('');
    setRaw(!raw);
  };

  const runRaw = () => {
    try {
      const v: unknown = JSON.parse(rawText);
      if (!isRecord(v)) throw new Error('arguments must be a JSON object');
      void run(v);
    } catch (e) {
      setRawErr(message(e));
    }
  };

  return (
    <div>
      <h2><ServerIcon src={tool.icon} size={20} /> {tool.title || tool.tool}</h2>
      <p className="muted"><code>{tool.name}</code> · {effectLabel(tool)}</p>
      {tool.description && <p className="tool-desc">{tool.description}</p>}
      {tool.warnings?.length > 0 && <p><WarningBadge warnings={tool.warnings} what="the description may hide instructions" /></p>}
      <WarningList warnings={tool.warnings ?? []} label={`Warnings of ${tool.name}`} />
      <ToolPolicy key={tool.name} name={tool.name} defaultPolicy={tool.defaultPolicy} />
      <label className="toggle">
        <input type="checkbox" checked={raw} onChange={toggleRaw} /> Raw JSON
      </label>
      {raw ? (
        <div>
          <label htmlFor="raw-args">Arguments (JSON)</label>
          <textarea id="raw-args" rows={10} value={rawText} onChange={(e) => setRawText(e.target.value)} spellCheck={false} />
          {rawErr && <div className="alert" role="alert">{rawErr}</div>}
          <button type="button" className="primary" onClick={runRaw} disabled={running}>{running ? 'Running…' : 'Run'}</button>
        </div>
      ) : (
        <SchemaForm
          schema={schema}
          label={`Arguments of ${tool.name}`}
          formData={data}
          onChange={setData}
          onSubmit={(d) => void run(d)}
        >
          <button type="submit" className="primary" disabled={running}>{running ? 'Running…' : 'Run'}</button>
        </SchemaForm>
      )}
      {callErr && <div className="alert" role="alert">{callErr}</div>}
      {result && <ToolResult result={result} server={tool.server} />}
      {result && (
        <ToolApp key={`${tool.name}#${ran.n}`} name={tool.name} chatId=""
          call={{ args: ran.args, status: result.isError ? 'error' : 'done', result: toolResult(result) }} />
      )}
    </div>
  );
}

