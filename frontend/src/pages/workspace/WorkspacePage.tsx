import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { call, ChooseWorkspaceRoot, EventWorkspaceChanged, hasBackend, hasRuntime, on, UnwatchWorkspace, WatchWorkspace, WorkspaceInfo } from '../../backend';
import { callTool } from '../../servers';
import { message } from '../../errors';

// The terminal (xterm.js) is loaded when the page first shows it.
const Terminal = lazy(() => import('./Terminal').then((m) => ({ default: m.Terminal })));

interface Entry { path: string; dir: boolean; depth: number }

/** toolText runs a workspace tool and returns its text, throwing its error text. */
async function toolText(name: string, args: object): Promise<string> {
  const res = await callTool(`workspace__${name}`, JSON.stringify(args));
  const text = res.content.map((c) => c.text).join('');
  if (res.isError) throw new Error(text || `${name} failed`);
  return text;
}

/** parseTree turns the tree tool's listing (the root on the first line, then
 * entries indented two spaces per level, directories ending in "/") into entries. */
export function parseTree(text: string): Entry[] {
  const out: Entry[] = [];
  const stack: string[] = [];
  const lines = text.split('\n');
  for (const raw of lines.slice(1)) {
    if (!raw.trim() || raw.startsWith('[')) continue;
    const indent = raw.length - raw.trimStart().length;
    const depth = Math.max(0, Math.floor(indent / 2) - 1);
    let name = raw.trim().replace(/ -> .*$/, '');
    const dir = name.endsWith('/');
    if (dir) name = name.slice(0, -1);
    stack.length = depth;
    const path = [...stack, name].join('/');
    if (dir) stack[depth] = name;
    out.push({ path, dir, depth });
  }
  return out;
}

/** WorkspacePage: the folder the model works in — its files, and the terminal the model's shell runs in. */
export function WorkspacePage() {
  const [root, setRoot] = useState('');
  const [entries, setEntries] = useState<Entry[]>([]);
  const [open, setOpen] = useState('');
  const [content, setContent] = useState('');
  const [err, setErr] = useState('');
  const tree = useCallback(() => {
    toolText('tree', { path: '.', depth: 4 }).then((t) => setEntries(parseTree(t)), (e: unknown) => setErr(message(e)));
  }, []);
  const load = useCallback(() => {
    if (!hasBackend()) return;
    call(WorkspaceInfo).then((i) => setRoot(i.root), (e: unknown) => setErr(message(e)));
    tree();
  }, [tree]);
  useEffect(load, [load]);
  // The list follows the folder: a command in the terminal, the model's
  // tools or another program changing a file lists it again (the Go side
  // joins a burst of changes into one event).
  useEffect(() => {
    if (!hasRuntime()) return undefined;
    const off = on(EventWorkspaceChanged, tree);
    call(WatchWorkspace).catch((e: unknown) => setErr(message(e)));
    return () => {
      off();
      void call(UnwatchWorkspace).catch(() => undefined);
    };
  }, [tree]);
  const view = (p: string) => {
    setOpen(p);
    toolText('read_file', { path: p }).then(setContent, (e: unknown) => setContent(`(${message(e)})`));
  };
  const choose = () => {
    call(ChooseWorkspaceRoot).then((r) => { if (r) { setRoot(r); setOpen(''); load(); } }, (e: unknown) => setErr(message(e)));
  };
  return (
    <section className="page workspace-page" aria-labelledby="page-title">
      <div className="page-head">
        <h1 id="page-title">Workspace</h1>
        <span className="muted small" title={root}><code>{root}</code></span>
        <button type="button" onClick={choose}>Choose folder…</button>
        <button type="button" onClick={load} title="The list follows the folder by itself; Refresh reads it again now">Refresh</button>
      </div>
      <p className="muted">The folder the model works in. Its file tools cannot reach outside it. Its shell commands start here but are not confined: a command can reach whatever your account can, so each one asks you first (unless you allowed it), as do changes to your files.</p>
      {err && <div className="alert" role="alert">{err}</div>}
      <div className="workspace-layout">
        <ul className="file-tree" aria-label="Files">
          {entries.map((e) => (
            <li key={e.path} style={{ paddingLeft: e.depth * 14 }}>
              {e.dir ? (
                <span className="dir">{e.path.split('/').pop()}/</span>
              ) : (
                <button type="button" className={open === e.path ? 'link selected' : 'link'} onClick={() => view(e.path)}>{e.path.split('/').pop()}</button>
              )}
            </li>
          ))}
          {entries.length === 0 && <li className="muted small">The folder is empty.</li>}
        </ul>
        <div className="file-view" aria-label="File">
          {open ? (<><h2 className="small"><code>{open}</code></h2><pre>{content}</pre></>) : <p className="muted small">Pick a file to view it.</p>}
        </div>
      </div>
      <h2>Terminal</h2>
      <p className="muted small">The same shell the model's <code>execute_shell</code> calls run in: you see its commands live and can type too. Each of you keeps your own directory: your <code>cd</code> here does not move the model's next command, which runs where its last one left off.</p>
      <Suspense fallback={<p className="muted small" role="status">Loading the terminal…</p>}>
        <Terminal session="default" />
      </Suspense>
    </section>
  );
}
