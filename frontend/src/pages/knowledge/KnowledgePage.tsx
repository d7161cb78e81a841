import { useEffect, useState } from 'react';
import { hasBackend } from '../../backend';
import {
  addFile, createStore, deleteStore, listStores, readContent, search, snippetParts,
  type Excerpt, type Hit, type StoreInfo,
} from '../../knowledge';
import { message } from '../../errors';

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
                  <span className="muted small">{s.documents} docs · {(s.bytes / 1024).toFixed(0)} KB</span>
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
      <p className="muted small">{store.documents} documents · {store.chunks} chunks</p>
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
          {hits.length === 0 && <li className="muted">No matches.</li>}
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
