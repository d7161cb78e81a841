import { useCallback, useEffect, useRef, useState } from 'react';
import { hasBackend } from '../../backend';
import {
  DEFAULT_MAX_FILE_BYTES, PAGE_SIZE, addFile, addSummary, cancelAdd, createStore, deleteStore, listDocs, listStores, pageLabel, readContent,
  reindexDoc, removeDoc, search, snippetParts, source, storeLine, takeFiles, tooLarge,
  type DocPage, type Excerpt, type Hit, type SearchResult, type StoreInfo,
} from '../../knowledge';
import { message, sentence } from '../../errors';
import { bytes, count } from '../../plural';

/** KnowledgePage: content stores the model can search — create, fill, search, read. */
export function KnowledgePage() {
  const [stores, setStores] = useState<StoreInfo[]>([]);
  const [maxFileBytes, setMaxFileBytes] = useState(DEFAULT_MAX_FILE_BYTES);
  const [err, setErr] = useState('');
  const [selected, setSelected] = useState('');
  const load = useCallback(() => {
    if (!hasBackend()) return;
    listStores().then(
      (list) => {
        setStores(list.stores);
        setMaxFileBytes(list.maxFileBytes);
        setSelected((cur) => cur || list.stores[0]?.id || '');
      },
      (e: unknown) => setErr(message(e)),
    );
  }, []);
  useEffect(load, [load]);

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Knowledge</h1>
      <p className="muted">Full-text content stores: add documents, search them, and let the model search and read them too (tools <code>content-store__*</code>).</p>
      {err && <div className="alert" role="alert">{sentence(err)}</div>}
      <div className="knowledge-layout">
        <div>
          <ul className="store-list" aria-label="Stores">
            {stores.map((s) => (
              <li key={s.id}>
                <button type="button" className={s.id === selected ? 'selected' : ''} aria-pressed={s.id === selected} onClick={() => { setErr(''); setSelected(s.id); }}>
                  <strong>{s.name}</strong>
                  <span className="muted small">{storeLine(s)}</span>
                </button>
              </li>
            ))}
            {stores.length === 0 && <li className="muted small">No stores yet. Name one below and press Create, then drop files into it.</li>}
          </ul>
          <CreateStore onCreated={(id) => { setErr(''); setSelected(id); load(); }} onError={setErr} />
        </div>
        <div className="tool-detail">
          {selected ? (
            <StoreView key={selected} store={stores.find((s) => s.id === selected)} maxFileBytes={maxFileBytes}
              onChanged={load} onDeleted={() => { setSelected(''); load(); }} onError={setErr} />
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

/** Adding is the state of adding files: which file of how many, the bytes so far, and since when. */
interface Adding {
  index: number;
  files: number;
  name: string;
  size: number;
  bytesDone: number;
  bytesTotal: number;
  started: number;
}

function StoreView({ store, maxFileBytes, onChanged, onDeleted, onError }: {
  store?: StoreInfo; maxFileBytes: number; onChanged: () => void; onDeleted: () => void; onError: (e: string) => void;
}) {
  const [adding, setAdding] = useState<Adding | null>(null);
  const [failed, setFailed] = useState<string[]>([]);
  const [summary, setSummary] = useState('');
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<SearchResult | null>(null);
  const [doc, setDoc] = useState<{ excerpt: Excerpt; marks: number[] } | null>(null);
  const [confirm, setConfirm] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [, setTick] = useState(0);
  const cancelled = useRef(false);
  const current = useRef('');
  const running = useRef(false);
  useEffect(() => {
    if (!adding) return undefined;
    const t = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(t);
  }, [adding]);
  if (!store) return null;

  const addFiles = async (files: File[]) => {
    if (files.length === 0) return;
    if (running.current) { // one add at a time
      onError(`Files are being added; add ${files.map((f) => f.name).join(', ')} again once that is done.`);
      return;
    }
    running.current = true;
    onError('');
    setFailed([]);
    setSummary('');
    cancelled.current = false;
    const bad: string[] = [];
    const replaced: string[] = [];
    let added = 0;
    let done = 0;
    let bytesDone = 0;
    const bytesTotal = files.reduce((n, f) => n + f.size, 0);
    for (const [i, f] of files.entries()) {
      if (cancelled.current) break;
      done++;
      // Refused before its bytes are read: the page would otherwise send a file the store refuses.
      const refused = tooLarge(f.name, f.size, maxFileBytes);
      if (refused) {
        bad.push(refused);
        bytesDone += f.size;
        continue;
      }
      const id = `add-${Date.now()}-${i}`;
      current.current = id;
      setAdding({ index: i, files: files.length, name: f.name, size: f.size, bytesDone, bytesTotal, started: Date.now() });
      try {
        const a = await addFile(store.id, f, maxFileBytes, id);
        added++;
        if (a.replaced) replaced.push(f.name);
      } catch (e) {
        if (cancelled.current) done--;
        else bad.push(message(e));
      }
      bytesDone += f.size;
    }
    current.current = '';
    running.current = false;
    setAdding(null);
    setFailed(bad);
    setSummary(addSummary(added, replaced, cancelled.current ? files.length - done : 0));
    onChanged();
  };
  const cancel = () => {
    cancelled.current = true;
    if (current.current) void cancelAdd(current.current);
  };
  const runSearch = async (e: React.FormEvent) => {
    e.preventDefault();
    onError(''); // an error of an earlier search or add is no longer news
    try {
      setResults(await search(query, store.id));
    } catch (err) {
      setResults(null);
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
      {store.error ? (
        <div className={`alert ${store.inUse ? 'alert-soft' : ''}`} role="status" aria-label="Store state">
          {store.inUse ? <p><strong>In use by another program.</strong> {sentence(store.error)}</p> : <p>{sentence(store.error)}</p>}
          {store.inUse && store.documents > 0 && <p className="small muted">When it was last closed it held {count(store.documents, 'document')}.</p>}
          <button type="button" className="small" onClick={onChanged}>Try again</button>
        </div>
      ) : (
        <p className="muted small">{count(store.documents, 'document')} · {count(store.chunks, 'chunk')}</p>
      )}
      {store.interrupted && <div className="alert" role="status" aria-label="Interrupted add">{sentence(store.interrupted)}</div>}
      {store.note && <p className="muted small">This store was {store.note}.</p>}
      <div
        className={`drop ${dragging ? 'drop-active' : ''}`}
        onDragOver={(e) => { e.preventDefault(); setDragging(true); }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => { e.preventDefault(); setDragging(false); void addFiles(Array.from(e.dataTransfer.files)); }}
      >
        Drop files here, or{' '}
        <label className="file-pick">
          choose files…
          <input type="file" multiple aria-label="Add files" disabled={adding !== null} onChange={(e) => void addFiles(takeFiles(e.target))} />
        </label>
        <div className="small">Text, Markdown, HTML, JSON, CSV, source code and PDF, up to {bytes(maxFileBytes)} each.</div>
      </div>
      {adding && <AddProgress adding={adding} onCancel={cancel} />}
      {failed.map((f) => <div key={f} className="alert" role="alert">{sentence(f)}</div>)}
      {summary && <p className="small muted" role="status" aria-label="Added">{summary}</p>}
      <form className="search-form" role="search" onSubmit={(e) => void runSearch(e)}>
        <label htmlFor="kq">Search</label>
        <input id="kq" type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="words to find" />
        <button type="submit" className="primary" disabled={!query.trim()}>Search</button>
      </form>
      {results && (
        <ol className="hits" aria-label="Results">
          {results.hits.length === 0 && (
            <li className="muted">{results.note ? sentence(results.note) : 'No matches in this store. Try other words, or add the documents that hold them above.'}</li>
          )}
          {results.hits.map((h) => (
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
          {doc.excerpt.note && <p className="small muted">{sentence(doc.excerpt.note)}</p>}
        </section>
      )}
      <DocList storeId={store.id} version={`${store.documents}:${store.chunks}:${summary}`} onChanged={onChanged} onError={onError} />
    </div>
  );
}

/**
 * AddProgress shows an add under way: which file of how many, the bytes done of all, the time it
 * has taken, and Cancel. While one file is read and indexed (a single call, which reports nothing
 * until it ends) the bar moves without a value.
 */
function AddProgress({ adding, onCancel }: { adding: Adding; onCancel: () => void }) {
  const seconds = Math.floor((Date.now() - adding.started) / 1000);
  return (
    <div role="status" aria-label="Adding files" className="add-progress">
      {adding.bytesDone > 0 ? <progress max={adding.bytesTotal} value={adding.bytesDone} /> : <progress />}
      <span>
        {adding.files > 1 && `${adding.index + 1} of ${adding.files}: `}reading and indexing {adding.name} ({bytes(adding.size)})
        {adding.files > 1 && ` · ${bytes(adding.bytesDone)} of ${bytes(adding.bytesTotal)} done`}
        {seconds > 0 && ` · ${seconds} s`}
      </span>
      <button type="button" className="small" onClick={onCancel}>Cancel</button>
    </div>
  );
}

/**
 * DocList is a store's documents, newest first, a page at a time (title, source, size, added) with
 * Re-index (reads the file again, or the kept text) and Remove (asks first). It reloads when the
 * store's counts change.
 */
function DocList({ storeId, version, onChanged, onError }: { storeId: string; version: string; onChanged: () => void; onError: (e: string) => void }) {
  const [page, setPage] = useState<DocPage | null>(null);
  const [offset, setOffset] = useState(0);
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState('');
  const [done, setDone] = useState('');
  const [reload, setReload] = useState(0);
  useEffect(() => {
    let live = true;
    listDocs(storeId, offset).then((p) => {
      if (!live) return;
      // A page past the end (documents went since) shows the last one instead.
      if (p.docs.length === 0 && offset > 0 && p.total > 0) setOffset(Math.floor((p.total - 1) / PAGE_SIZE) * PAGE_SIZE);
      else setPage(p);
    }, (e: unknown) => live && onError(message(e)));
    return () => { live = false; };
  }, [storeId, offset, version, reload, onError]);
  if (page === null) return null;
  if (page.total === 0) return <p className="muted small">No documents yet. Drop files above, or let the model add some with <code>content-store__addContent</code>.</p>;
  const act = async (id: string, what: () => Promise<string>) => {
    setBusy(id);
    setDone('');
    try {
      setDone(await what());
    } catch (e) {
      onError(message(e));
    }
    setBusy('');
    setConfirm('');
    setReload((n) => n + 1);
    onChanged();
  };
  const pager = (
    <div className="pager" role="navigation" aria-label="Document pages">
      <span className="small muted">{pageLabel(page)}</span>
      {(page.offset > 0 || page.more) && (
        <>
          <button type="button" className="small" disabled={page.offset === 0} onClick={() => setOffset(Math.max(0, page.offset - PAGE_SIZE))}>Previous</button>
          <button type="button" className="small" disabled={!page.more} onClick={() => setOffset(page.offset + page.docs.length)}>Next</button>
        </>
      )}
    </div>
  );
  return (
    <div className="doc-list">
      {pager}
      <table className="data-table" aria-label="Documents">
        <thead>
          <tr><th scope="col">Title</th><th scope="col">Source</th><th scope="col">Size</th><th scope="col">Added</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr>
        </thead>
        <tbody>
          {page.docs.map((d) => (
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
                      onClick={() => void act(d.contentId, async () => { await removeDoc(d.contentId); return `Removed ${d.title}.`; })}>Remove</button>{' '}
                    <button type="button" className="small" onClick={() => setConfirm('')}>Keep</button>
                  </span>
                ) : (
                  <>
                    <button type="button" className="small" disabled={busy !== ''} title={d.path ? 'Read the file again' : 'Index the kept text again'}
                      onClick={() => void act(d.contentId, async () => {
                        const note = await reindexDoc(d.contentId);
                        return note ? `Re-indexed ${d.title}: ${note}.` : `Re-indexed ${d.title}.`;
                      })}>
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
