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
  const tools = (list?.tools ?? []).filter((t) => t.server === server);
  const tool = tools.find((t) => t.name === selected);

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Tools</h1>
      <p className="muted">Pick a server and one of its tools, fill in the form generated from its schema, and run it.</p>
      {loadErr && <div className="alert" role="alert">{loadErr}</div>}
      <ServerRequests />
      <Unavailable errors={list?.errors ?? []} />
      <div className="tools-layout">
        <div className="tool-picker">
          <label htmlFor="tool-server">Server</label>
          <select
              id="tool-server"
              value={server}
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
          <ul className="tool-list" aria-label="Tools of the server">
            {tools.map((t) => (
              <li key={t.name}>
                <button
                  type="button"
                  className={t.name === selected ? 'selected' : ''}
                  aria-pressed={t.name === selected}
                  onClick={() => setSelected(t.name)}
                >
                  <ServerIcon src={t.icon} />{t.tool}{t.warnings?.length > 0 && <span className="warn-mark" title={t.warnings.map((w) => w.reason).join('; ')}> <Icon name="warning" size={13} label="has warnings" /></span>}
                </button>
              </li>
            ))}
          </ul>
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

