import { useEffect, useState } from 'react';
import { hasBackend } from '../../backend';
import {
  addFile, createStore, deleteStore, listDocs, listStores, readContent, reindexDoc, removeDoc, search, snippetParts,
  type Doc, type Excerpt, type Hit, type StoreInfo,
} from '../../knowledge';
import { message } from '../../errors';
import { bytes, count } from '../../plural';

/** KnowledgePage: content stores the model can search — create, fill, search, read. */
export function KnowledgePage() {
  const [stores, setStores] = useState<StoreInfo[]>([]);
  const [err, setErr] = useState('');
  const [selected, setSelected] = useState('');
  const load = () => {
    if (!hasBackend()) return;
    listStores().then(
      (s) => {
        setStores(s);
        setSelected((cur) => cur || s[0]?.id || '');
      },
      (e: unknown) => setErr(message(e)),
    );
  };
  useEffect(load, []);

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Knowledge</h1>
      <p className="muted">Full-text content stores: add documents, search them, and let the model search and read them too (tools <code>content-store__*</code>).</p>
      {err && <div className="alert" role="alert">{err}</div>}
      <div className="knowledge-layout">
        <div>
          <ul className="store-list" aria-label="Stores">
            {stores.map((s) => (
              <li key={s.id}>
                <button type="button" className={s.id === selected ? 'selected' : ''} aria-pressed={s.id === selected} onClick={() => setSelected(s.id)}>
                  <strong>{s.name}</strong>
                  <span className="muted small">{count(s.documents, 'document')} · {bytes(s.bytes)}</span>
                </button>
              </li>
            ))}
            {stores.length === 0 && <li className="muted small">No stores yet. Name one below and press Create, then drop files into it.</li>}
          </ul>
          <CreateStore onCreated={(id) => { setSelected(id); load(); }} onError={setErr} />
        </div>
        <div className="tool-detail">
          {selected ? (
            <StoreView key={selected} store={stores.find((s) => s.id === selected)} onChanged={load} onDeleted={() => { setSelected(''); load(); }} onError={setErr} />
          ) : (
            <p className="muted">Create a store to add documents.</p>
          )}
        </div>
      </div>
    </section>
  );
}

function CreateStore({ onCreated, onError }: { onCreated: (id: string) => void; onError: (e: string) => void }) {
  const [name, setName] = useState('');
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    try {
      const s = await createStore(name.trim(), '');
      setName('');
      onCreated(s.id);
    } catch (err) {
      onError(message(err));
    }
  };
  return (
    <form className="create-store" aria-label="Create a store" onSubmit={(e) => void submit(e)}>
      <label>New store <input value={name} onChange={(e) => setName(e.target.value)} placeholder="project-notes" /></label>
      <button type="submit" className="primary" disabled={!name.trim()}>Create</button>
    </form>
  );
}

function StoreView({ store, onChanged, onDeleted, onError }: {
  store?: StoreInfo; onChanged: () => void; onDeleted: () => void; onError: (e: string) => void;
}) {
  const [progress, setProgress] = useState<{ done: number; total: number; current: string } | null>(null);
  const [failed, setFailed] = useState<string[]>([]);
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<Hit[] | null>(null);
  const [doc, setDoc] = useState<{ excerpt: Excerpt; marks: number[] } | null>(null);
  const [confirm, setConfirm] = useState(false);
  const [dragging, setDragging] = useState(false);
  if (!store) return null;

  const addFiles = async (files: File[]) => {
    setFailed([]);
    const bad: string[] = [];
    for (let i = 0; i < files.length; i++) {
      const f = files[i]!;
      setProgress({ done: i, total: files.length, current: f.name });
      try {
        await addFile(store.id, f);
      } catch (e) {
        bad.push(message(e));
      }
    }
    setProgress(null);
    setFailed(bad);
    onChanged();
  };
  const runSearch = async (e: React.FormEvent) => {
    e.preventDefault();
    try {
      setHits(await search(query, store.id));
    } catch (err) {
      onError(message(err));
    }
  };
  const open = async (h: Hit) => {
    try {
      setDoc({ excerpt: await readContent(h.contentId, h.fromLine, h.toLine), marks: h.matchLines });
    } catch (err) {
      onError(message(err));
    }
  };

  return (
    <div>
      <div className="page-head">
        <h2>{store.name}</h2>
        {confirm ? (
          <span role="alertdialog" aria-label={`Delete store ${store.name}?`}>
            Delete every document in {store.name}?{' '}
            <button type="button" className="danger" autoFocus onClick={() => deleteStore(store.id).then(onDeleted, (e: unknown) => onError(message(e)))}>Delete store</button>{' '}
            <button type="button" onClick={() => setConfirm(false)}>Cancel</button>
          </span>
        ) : (
          <button type="button" onClick={() => setConfirm(true)}>Delete store…</button>
        )}
      </div>
      <p className="muted small">{count(store.documents, 'document')} · {count(store.chunks, 'chunk')}</p>
      <DocList storeId={store.id} version={`${store.documents}:${store.chunks}`} onChanged={onChanged} onError={onError} />
      <div
        className={`drop ${dragging ? 'drop-active' : ''}`}
        onDragOver={(e) => { e.preventDefault(); setDragging(true); }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => { e.preventDefault(); setDragging(false); void addFiles(Array.from(e.dataTransfer.files)); }}
      >
        Drop files here, or{' '}
        <label className="file-pick">
          choose files…
          <input type="file" multiple aria-label="Add files" onChange={(e) => e.target.files && void addFiles(Array.from(e.target.files))} />
        </label>
      </div>
      {progress && (
        <div role="status" aria-label="Adding files">
          <progress max={progress.total} value={progress.done} /> {progress.done + 1} of {progress.total}: {progress.current}
        </div>
      )}
      {failed.map((f) => <div key={f} className="alert" role="alert">{f}</div>)}
      <form className="search-form" role="search" onSubmit={(e) => void runSearch(e)}>
        <label htmlFor="kq">Search</label>
        <input id="kq" type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="words to find" />
        <button type="submit" className="primary" disabled={!query.trim()}>Search</button>
      </form>
      {hits && (
        <ol className="hits" aria-label="Results">
          {hits.length === 0 && <li className="muted">No matches in this store. Try other words, or add the documents that hold them below.</li>}
          {hits.map((h) => (
            <li key={`${h.contentId}:${h.fromLine}`}>
              <button type="button" className="link" onClick={() => void open(h)}>{h.title}{h.section ? ` › ${h.section}` : ''}</button>
              <span className="muted small"> lines {h.fromLine}–{h.toLine} · score {h.score.toFixed(2)}</span>
              <pre className="snippet">{snippetParts(h.snippet).map((p, i) => (p.mark ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}</pre>
            </li>
          ))}
        </ol>
      )}
      {doc && (
        <section className="doc-view" aria-label={`Document ${doc.excerpt.title}`}>
          <h3>{doc.excerpt.title} <span className="muted small">lines {doc.excerpt.fromLine}–{doc.excerpt.toLine}</span></h3>
          <pre>
            {doc.excerpt.text.split('\n').map((line, i) => {
              const n = doc.excerpt.fromLine + i;
              return <div key={n} className={doc.marks.includes(n) ? 'hit-line' : ''}><span className="ln">{n}</span>{line}</div>;
            })}
          </pre>
        </section>
      )}
    </div>
  );
}

/** source says where a document came from: its file, a file dropped on this window (not kept), or text. */
function source(d: Doc): string {
  if (!d.path) return 'text';
  if (/[\\/]switchboard-doc-[^\\/]+[\\/][^\\/]+$/.test(d.path)) return 'a file added here';
  return d.path;
}

/**
 * DocList is a store's documents (title, source, size, added) with Re-index (reads the file
 * again, or the kept text) and Remove (asks first). It reloads when the store's counts change.
 */
function DocList({ storeId, version, onChanged, onError }: { storeId: string; version: string; onChanged: () => void; onError: (e: string) => void }) {
  const [docs, setDocs] = useState<Doc[] | null>(null);
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState('');
  const [done, setDone] = useState('');
  const [reload, setReload] = useState(0);
  useEffect(() => {
    let live = true;
    listDocs(storeId).then((d) => live && setDocs(d), (e: unknown) => live && onError(message(e)));
    return () => { live = false; };
  }, [storeId, version, reload, onError]);
  if (docs === null) return null;
  if (docs.length === 0) return <p className="muted small">No documents yet. Drop files below, or let the model add some with <code>content-store__addContent</code>.</p>;
  const act = async (id: string, what: () => Promise<void>, said: string) => {
    setBusy(id);
    setDone('');
    try {
      await what();
      setDone(said);
    } catch (e) {
      onError(message(e));
    }
    setBusy('');
    setConfirm('');
    setReload((n) => n + 1);
    onChanged();
  };
  return (
    <div className="doc-list">
      <table className="data-table" aria-label="Documents">
        <thead>
          <tr><th scope="col">Title</th><th scope="col">Source</th><th scope="col">Size</th><th scope="col">Added</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr>
        </thead>
        <tbody>
          {docs.map((d) => (
            <tr key={d.contentId} aria-label={d.title}>
              <th scope="row" className="doc-title">{d.title || 'Untitled'}</th>
              <td className="doc-source" title={d.path || undefined}>{source(d)}</td>
              <td className="nowrap">{bytes(d.bytes)}</td>
              <td className="nowrap">{d.added ? new Date(d.added).toLocaleString() : ''}</td>
              <td className="nowrap">
                {confirm === d.contentId ? (
                  <span role="alertdialog" aria-label={`Remove ${d.title}?`}>
                    Remove from the store?{' '}
                    <button type="button" className="danger small" autoFocus disabled={busy !== ''}
                      onClick={() => void act(d.contentId, () => removeDoc(d.contentId), `Removed ${d.title}.`)}>Remove</button>{' '}
                    <button type="button" className="small" onClick={() => setConfirm('')}>Keep</button>
                  </span>
                ) : (
                  <>
                    <button type="button" className="small" disabled={busy !== ''} title={d.path ? 'Read the file again' : 'Index the kept text again'}
                      onClick={() => void act(d.contentId, () => reindexDoc(d.contentId), `Re-indexed ${d.title}.`)}>
                      {busy === d.contentId ? 'Re-indexing…' : 'Re-index'}
                    </button>{' '}
                    <button type="button" className="small" disabled={busy !== ''} onClick={() => setConfirm(d.contentId)}>Remove…</button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {done && <p className="small muted" role="status">{done}</p>}
    </div>
  );
}
