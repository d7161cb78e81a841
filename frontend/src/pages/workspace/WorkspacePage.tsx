import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { call, ChooseWorkspaceRoot, EventWorkspaceChanged, hasBackend, hasRuntime, on, UnwatchWorkspace, WatchWorkspace, WorkspaceInfo } from '../../backend';
import { callTool } from '../../servers';
import { message } from '../../errors';

// The terminal (xterm.js) is loaded when the page first shows it.
const Terminal = lazy(() => import('./Terminal').then((m) => ({ default: m.Terminal })));

/** FileEntry is an entry of the list_directory and tree tools' structured content (their outputSchema). */
export interface FileEntry {
  name: string;
  /** file, dir, symlink, fifo, socket, device or other. */
  type: string;
  size?: number;
  /** What a symbolic link points to, as written in it. */
  target?: string;
  /** What a link leads to inside the workspace (file, dir, …); absent when the file tools cannot follow it. */
  targetType?: string;
  ignored?: boolean;
}
interface TreeEntry extends FileEntry { path: string; depth: number; unlisted?: boolean }
/** TreeResult is the tree tool's structured content. */
export interface TreeResult { path: string; entries: TreeEntry[]; ignored?: number; depthLimited?: boolean; truncated?: boolean }
interface Listing { path: string; entries: FileEntry[]; more?: boolean }
/** ReadResult is the read_file tool's structured content. */
export interface ReadResult { path: string; content: string; fromLine: number; toLine: number; totalLines: number; truncated?: boolean; size: number }

/** toolResult runs a workspace tool and returns its structured content, throwing its error text. */
async function toolResult<T>(name: string, args: object): Promise<T> {
  const res = await callTool(`workspace__${name}`, JSON.stringify(args));
  if (res.isError) throw new Error(res.content.map((c) => c.text).join('') || `${name} failed`);
  return JSON.parse(res.structured) as T;
}

/** Folders maps a folder's path ("." for the root) to its entries, for the folders listed so far. */
export type Folders = Map<string, FileEntry[]>;

/** childPath is the path of entry name of folder dir. */
export function childPath(dir: string, name: string): string {
  return dir === '.' ? name : `${dir}/${name}`;
}

/** foldersFromTree files the tree tool's entries under their folders: the
 * root and every folder the tree listed (not those it left unlisted at its
 * depth limit, or could not read: their entries come from list_directory when
 * opened). */
export function foldersFromTree(t: TreeResult): Folders {
  const out: Folders = new Map([[t.path, []]]);
  for (const e of t.entries) {
    if (e.type === 'dir' && !e.unlisted) out.set(e.path, []);
  }
  for (const e of t.entries) {
    const i = e.path.lastIndexOf('/');
    out.get(i < 0 ? '.' : e.path.slice(0, i))?.push(e);
  }
  return out;
}

/** shownName is a name as the list shows it: control and direction-changing
 * characters written as escapes (\n, \u202e), so a name can neither hide
 * anything nor look like another. */
export function shownName(name: string): string {
  // eslint-disable-next-line no-control-regex
  return name.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const short: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
    return short[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

const KINDS: Record<string, string> = { fifo: 'named pipe', socket: 'socket', device: 'device file', other: 'special file' };

/** userReason says why read_file could not show a file, in the user's words:
 * its errors are written for the model ("read_file "x": not a text file: it
 * is binary (…); … inspect it with execute_shell"). */
export function userReason(text: string): string {
  const body = text.replace(/^read_file (?:"(?:[^"\\]|\\.)*"|\S*): /, '');
  const detail = (rule: string) => body.slice(rule.length + 2).split('; ')[0] ?? '';
  const rules: [string, () => string][] = [
    ['not a text file', () => `It is not a text file: ${detail('not a text file')}, so it is not shown here.`],
    ['not a regular file', () => `It is ${detail('not a regular file').replace(/^it is /, '')}, not a regular file, so it is not shown here.`],
    ['file has more than one hard link', () => 'It has more than one hard link, and another may be outside the workspace, so it is not read.'],
    ['no such file or directory', () => 'It is no longer there: it was moved or deleted.'],
    ['path escapes the workspace root', () => 'It leads outside the workspace, so it is not read.'],
    ['path is a symbolic link', () => 'A link on its way goes round in a loop.'],
    ['is a directory', () => 'It is a folder.'],
  ];
  for (const [rule, say] of rules) {
    if (body.startsWith(rule)) return say();
  }
  return body.split('; ')[0] ?? body;
}

/** FileViewer shows a text file a range at a time: Show more reads on where the last read stopped. */
function FileViewer({ path }: { path: string }) {
  const [text, setText] = useState('');
  const [last, setLast] = useState<ReadResult | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(true);
  const read = useCallback((fromLine: number) => {
    setBusy(true);
    toolResult<ReadResult>('read_file', fromLine > 1 ? { path, fromLine } : { path }).then((r) => {
      setText((t) => (fromLine > 1 ? t : '') + r.content);
      setLast(r);
    }, (e: unknown) => setError(userReason(message(e)))).finally(() => setBusy(false));
  }, [path]);
  useEffect(() => read(1), [read]);
  const cut = last?.truncated && !last.content.endsWith('\n');
  return (
    <>
      <h2 className="small"><code className="name">{shownName(path)}</code></h2>
      {error && <p className="muted small" role="status">{error}</p>}
      {text && <pre>{text}</pre>}
      {last && last.totalLines === 0 && <p className="muted small">The file is empty.</p>}
      {last && last.totalLines > 0 && (cut || last.toLine < last.totalLines) && (
        <p className="muted small file-more">
          {cut && `Line ${last.toLine} is longer than a read can hold: only its start is shown. `}
          {last.toLine < last.totalLines && `Lines 1–${last.toLine} of ${last.totalLines}. `}
          {last.toLine < last.totalLines && (
            <button type="button" onClick={() => read(last.toLine + 1)} disabled={busy}>Show more</button>
          )}
        </p>
      )}
    </>
  );
}

/** WorkspacePage: the folder the model works in — its files, and the terminal the model's shell runs in. */
export function WorkspacePage() {
  const [root, setRoot] = useState('');
  const [fresh, setFresh] = useState(false);
  const [tree, setTree] = useState<{ folders: Folders; truncated: boolean } | null>(null);
  // Folders below the tree's depth, listed when opened: kept fresh with the tree.
  const [listed, setListed] = useState<Map<string, Listing>>(new Map());
  // The user's open or closed choice per folder; unset: open when the tree listed it.
  const [toggled, setToggled] = useState<Map<string, boolean>>(new Map());
  // The file in the viewer; n counts the clicks, so a click reads it again.
  const [open, setOpen] = useState({ path: '', n: 0 });
  const view = useCallback((path: string) => setOpen((o) => ({ path, n: o.n + 1 })), []);
  const [err, setErr] = useState('');
  const state = useRef({ listed, toggled });
  useEffect(() => { state.current = { listed, toggled }; });

  const list = useCallback((dir: string) => toolResult<Listing>('list_directory', { path: dir }).then((l) => {
    setListed((m) => new Map(m).set(dir, l));
  }, (e: unknown) => {
    setListed((m) => { const n = new Map(m); n.delete(dir); return n; });
    setErr(message(e));
  }), []);
  const refresh = useCallback(() => {
    if (!hasBackend()) return;
    setErr('');
    call(WorkspaceInfo).then((i) => { setRoot(i.root); setFresh(i.fresh); }, (e: unknown) => setErr(message(e)));
    toolResult<TreeResult>('tree', { path: '.', depth: 4 }).then((t) => {
      const folders = foldersFromTree(t);
      setTree({ folders, truncated: !!t.truncated });
      // Folders opened below the tree's depth are listed again.
      for (const dir of state.current.listed.keys()) {
        if (folders.has(dir)) continue;
        if (state.current.toggled.get(dir)) void list(dir);
        else setListed((m) => { const n = new Map(m); n.delete(dir); return n; });
      }
    }, (e: unknown) => setErr(message(e)));
  }, [list]);
  useEffect(refresh, [refresh]);
  // The list follows the folder: a command in the terminal, the model's
  // tools or another program changing a file lists it again (the Go side
  // joins a burst of changes into one event). The marker's removal too:
  // the note on writes without asking goes.
  useEffect(() => {
    if (!hasRuntime()) return undefined;
    const off = on(EventWorkspaceChanged, refresh);
    call(WatchWorkspace).catch((e: unknown) => setErr(message(e)));
    return () => {
      off();
      void call(UnwatchWorkspace).catch(() => undefined);
    };
  }, [refresh]);
  const choose = () => {
    call(ChooseWorkspaceRoot).then((r) => {
      if (!r) return;
      setRoot(r);
      setOpen((o) => ({ path: '', n: o.n + 1 }));
      setListed(new Map());
      setToggled(new Map());
      refresh();
    }, (e: unknown) => setErr(message(e)));
  };

  const entriesOf = (dir: string) => tree?.folders.get(dir) ?? listed.get(dir)?.entries.filter((e) => !e.ignored);
  const isOpen = (dir: string) => toggled.get(dir) ?? !!tree?.folders.has(dir);
  const toggle = (dir: string) => {
    const next = !isOpen(dir);
    setToggled((m) => new Map(m).set(dir, next));
    if (next && !entriesOf(dir)) void list(dir);
  };
  const rows: ReactNode[] = [];
  const addRows = (dir: string, depth: number) => {
    const entries = entriesOf(dir);
    const pad = { paddingLeft: depth * 14 };
    if (!entries) {
      rows.push(<li key={`${dir}/…`} className="muted small" style={pad}>Loading…</li>);
      return;
    }
    if (entries.length === 0 && depth > 0) rows.push(<li key={`${dir}/∅`} className="muted small" style={pad}>empty</li>);
    for (const e of entries) {
      const p = childPath(dir, e.name);
      rows.push(<li key={p} style={pad}><EntryRow entry={e} path={p} open={e.type === 'dir' && isOpen(p)} selected={open.path === p} onToggle={toggle} onView={view} /></li>);
      if (e.type === 'dir' && isOpen(p)) addRows(p, depth + 1);
    }
    if (listed.get(dir)?.more) rows.push(<li key={`${dir}/+`} className="muted small" style={pad}>Only the first entries are shown.</li>);
  };
  if (tree) addRows('.', 0);

  return (
    <section className="page workspace-page" aria-labelledby="page-title">
      <div className="page-head">
        <h1 id="page-title">Workspace</h1>
        <span className="muted small" title={root}><code>{root}</code></span>
        <button type="button" onClick={choose}>Choose folder…</button>
        <button type="button" onClick={refresh} title="The list follows the folder by itself; Refresh reads it again now">Refresh</button>
      </div>
      <p className="muted">The folder the model works in. Its file tools cannot reach outside it. Its shell commands start here but are not confined: a command can reach whatever your account can, so each one asks you first (unless you allowed it), as do changes to your files.</p>
      {fresh && (
        <p className="workspace-fresh" role="note">
          Switchboard made this folder for the model, so the model writes and edits files here without asking you (shell commands, moves and
          deletions still ask). To be asked for every change, delete the file <code>.switchboard-workspace</code> in it.
        </p>
      )}
      {err && <div className="alert" role="alert">{err}</div>}
      <div className="workspace-layout">
        <ul className="file-tree" aria-label="Files">
          {rows}
          {tree && tree.folders.get('.')?.length === 0 && <li className="muted small">The folder is empty.</li>}
          {tree?.truncated && <li className="muted small">Only the first 1,000 entries are listed: open a folder to see more of it.</li>}
        </ul>
        <div className="file-view" aria-label="File">
          {open.path ? <FileViewer key={open.n} path={open.path} /> : <p className="muted small">Pick a file to view it.</p>}
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

/** EntryRow is one entry of the file list: a folder opens and closes, a file
 * (or a link to one inside the workspace) opens in the viewer, and what the
 * viewer cannot show (named pipes, sockets, devices, links leading outside,
 * nowhere or round in a loop) says what it is instead of being a button. */
function EntryRow({ entry: e, path, open, selected, onToggle, onView }: {
  entry: FileEntry; path: string; open: boolean; selected: boolean; onToggle: (p: string) => void; onView: (p: string) => void;
}) {
  const name = <span className="name">{shownName(e.name)}</span>;
  const target = e.target !== undefined && <span className="muted small"> → <span className="name">{shownName(e.target)}</span></span>;
  const cls = selected ? 'link selected' : 'link';
  switch (e.type) {
    case 'dir':
      return (
        <button type="button" className="link dir" aria-expanded={open} onClick={() => onToggle(path)}>
          <span aria-hidden="true" className="twisty">{open ? '▾' : '▸'}</span>{name}/
        </button>
      );
    case 'file':
      return <button type="button" className={cls} onClick={() => onView(path)}>{name}</button>;
    case 'symlink':
      if (e.targetType === 'file') return <><button type="button" className={cls} onClick={() => onView(path)}>{name}</button>{target}</>;
      if (e.targetType === 'dir') return <span className="dir">{name}/{target}</span>;
      if (e.targetType) return <span className="muted">{name}{target} <span className="small">(link to a {KINDS[e.targetType] ?? e.targetType})</span></span>;
      return (
        <span className="muted" title="The file tools do not follow this link: it leads outside the workspace, to nothing, or round in a loop">
          {name}{target} <span className="small">(link not followed)</span>
        </span>
      );
  }
  return <span className="muted">{name} <span className="small">({KINDS[e.type] ?? e.type})</span></span>;
}
