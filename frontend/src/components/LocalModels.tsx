import { useEffect, useId, useRef, useState } from 'react';
import {
  AddLocalModelFile, call, CancelLocalModelDownload, ChooseLocalModelFile, DiscardLocalModelDownload, DownloadLocalModel, EventModelDownload,
  FoundLocalModels, hasMethod, hasRuntime, LocalModels as LoadLocalModels, on, RemoveLocalModel, SetModelDownloadURL,
} from '../backend';
import type { gui } from '../backend';
import { message } from '../errors';
import { ErrorMessage } from './ErrorMessage';
import { useConfigVersion } from '../store';

type Model = gui.LocalModelView;
type Progress = gui.ModelDownload;

/**
 * formatBytes is a model's size as a person reads it, in decimal units as
 * download sites show them: one decimal under 100 of a unit, none from 100
 * on, rounded half up. It is the CLI's rule (Go's localmodel.Size); both
 * are held to app/localmodel/testdata/sizes.json, so the two doors say the
 * same size.
 */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} bytes`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let i = 0;
  let u = 1000;
  while (i < units.length - 1 && n >= u * 1000) {
    i++;
    u *= 1000;
  }
  for (;;) {
    if (n < 100 * u) {
      const tenths = Math.floor((n * 10 + u / 2) / u);
      if (tenths < 1000) return `${Math.floor(tenths / 10)}.${tenths % 10} ${units[i]}`;
    }
    const whole = Math.floor((n + u / 2) / u);
    if (whole < 1000 || i === units.length - 1) return `${whole} ${units[i]}`;
    i++;
    u *= 1000;
  }
}

/**
 * LocalModels is "Download a model to run on this computer": the pinned
 * catalog (the default preselected), one Download button, the download's
 * progress with Cancel, Ready, a clear error with Retry, "Choose a GGUF
 * file…" and the GGUF models Ollama and LM Studio keep here. Nothing
 * downloads until the person clicks. Every download running shows its
 * progress and Cancel, whichever model is selected. In Settings (manage)
 * it also offers Remove (confirmed), discarding a partial download, and the
 * download URL. onReady hears a model that became usable. With
 * downloadsOnly (the welcome page once a model is chosen) it shows the
 * downloads alone: one still running stays in view, with its Cancel.
 */
export function LocalModels({ manage = false, downloadsOnly = false, onReady }: { manage?: boolean; downloadsOnly?: boolean; onReady?: (m: Model) => void }) {
  const [view, setView] = useState<gui.LocalModelsView | null>(null);
  const [chosen, setChosen] = useState('');
  const [progress, setProgress] = useState<Record<string, Progress>>({});
  const [err, setErr] = useState('');
  // chooseErr is Choose a GGUF file…'s error ("not a GGUF file"): it shows
  // beside that button, where the person is looking, not at the section's foot.
  const [chooseErr, setChooseErr] = useState('');
  const [failed, setFailed] = useState<Record<string, string>>({});
  // acted: the person started a download here, so the button that follows
  // (Cancel, then Retry or Resume) takes the focus the vanished one had.
  const [acted, setActed] = useState(false);
  // tracked: the downloads downloadsOnly shows (those running since it was set).
  const tracked = useRef(new Set<string>());
  const configVersion = useConfigVersion();
  const group = useId();
  const ready = useRef(onReady);
  ready.current = onReady;

  const load = () => {
    if (!hasMethod('SettingsPage', 'LocalModels')) return; // no Go side (plain vite), or unit tests of other pages
    call(LoadLocalModels).then((v) => {
      setView(v);
      setChosen((c) => c || (v.models.find((m) => m.default && !m.chosen) ?? v.models[0])?.name || '');
    }, (e: unknown) => setErr(message(e)));
  };
  useEffect(load, [configVersion]);
  useEffect(() => {
    if (!hasRuntime()) return undefined;
    const latest: Record<string, number> = {};
    return on(EventModelDownload, (p) => {
      if ((latest[p.name] ?? 0) > p.seq) return; // stale: Wails may deliver events out of order
      latest[p.name] = p.seq;
      setProgress((all) => ({ ...all, [p.name]: p }));
      if (p.state === 'downloading') return;
      if (p.state === 'failed') setFailed((f) => ({ ...f, [p.name]: p.error }));
      call(LoadLocalModels).then((v) => {
        setView(v);
        const m = v.models.find((x) => x.name === p.name);
        if (p.state === 'ready' && m) ready.current?.(m);
      }, (e: unknown) => setErr(message(e)));
    });
  }, []);

  if (!view) return err ? <div className="alert" role="alert">{err}</div> : null;
  const catalog = view.models.filter((m) => !m.chosen);
  const files = view.models.filter((m) => m.chosen);
  const sel = catalog.find((m) => m.name === chosen);
  const running = catalog.filter((m) => (progress[m.name] ? progress[m.name]!.state === 'downloading' : m.downloading));
  const cancel = (m: Model) => call(() => CancelLocalModelDownload(m.name)).catch((e: unknown) => setErr(message(e)));

  if (downloadsOnly) {
    // The downloads running since the choice was made, and how each ended
    // (not the one that made it, nor an older failure).
    for (const m of running) tracked.current.add(m.name);
    const shown = catalog.filter((m) => tracked.current.has(m.name));
    if (shown.length === 0) return null;
    return (
      <ul className="local-model-downloads" aria-label="Model downloads">
        {shown.map((m) => {
          const p = progress[m.name];
          if (!p || p.state === 'downloading') return <li key={m.name}><DownloadProgress model={m} progress={p} onCancel={() => cancel(m)} /></li>;
          if (p.state === 'ready') return <li key={m.name} className="notice" role="status">{m.title} is ready.</li>;
          if (p.state === 'failed') return <li key={m.name}><ErrorMessage error={p.error} /></li>;
          return <li key={m.name} className="small muted">{m.title}: download cancelled; {formatBytes(p.done)} kept, to resume in Settings → Models.</li>;
        })}
      </ul>
    );
  }

  const start = (m: Model) => {
    setActed(true);
    setErr('');
    setChooseErr(''); // a new attempt: an older file's error no longer applies
    setFailed((f) => ({ ...f, [m.name]: '' }));
    setProgress((all) => ({ ...all, [m.name]: { name: m.name, done: m.partial, total: m.size, state: 'downloading', error: '', seq: 0 } }));
    call(() => DownloadLocalModel(m.name)).catch((e: unknown) => {
      setProgress((all) => ({ ...all, [m.name]: { name: m.name, done: m.partial, total: m.size, state: 'failed', error: message(e), seq: 0 } }));
      setFailed((f) => ({ ...f, [m.name]: message(e) }));
    });
  };
  const choose = () => {
    setChooseErr('');
    call(ChooseLocalModelFile).then((m) => {
      if (!m.name) return; // cancelled
      load();
      onReady?.(m);
    }, (e: unknown) => setChooseErr(message(e)));
  };
  // A failed download of the selected model: its sentence, then the ways on
  // (Retry, a GGUF file of one's own, a mirror) in one place beside it.
  const selProgress = sel ? progress[sel.name] : undefined;
  const selRunning = sel ? (selProgress ? selProgress.state === 'downloading' : sel.downloading) : false;
  const failure = sel && !selRunning && !(sel.installed) ? failed[sel.name] ?? '' : '';
  const chooseRow = (
    <>
      <p className="row">
        <button type="button" onClick={choose}>Choose a GGUF file…</button>
        <span className="small muted">Any llama.cpp model file you already have; it stays where it is.</span>
      </p>
      {chooseErr && <ChooseError error={chooseErr} />}
      <FoundModels version={configVersion} onAdded={(m) => { load(); onReady?.(m); }} onError={setChooseErr} />
    </>
  );
  // Downloads running besides the selected model's (whose own actions show it).
  const others = running.filter((m) => m !== sel);

  return (
    <div className="local-models">
      <fieldset className="local-model-list">
        <legend>Download a model to run on this computer</legend>
        <p className="small muted">It runs here: no account, no key, and your chats stay on this machine. Nothing is downloaded until you click Download; the file is checked against its published SHA-256 before use.</p>
        {catalog.map((m) => (
          <label key={m.name} className={`local-model${m.name === chosen ? ' selected' : ''}`}>
            <input type="radio" name={group} value={m.name} checked={m.name === chosen} onChange={() => setChosen(m.name)} />
            <span className="local-model-text">
              <span className="local-model-head">
                <strong>{m.title}</strong>{m.default && <span className="badge">recommended</span>}
                {m.installed && <span className="badge ok">downloaded</span>}
              </span>
              <span className="small">{formatBytes(m.size)} download · needs about {formatBytes(m.ram)} of memory · {m.licence}</span>
              <span className="small muted">{m.goodFor}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {sel && failure && (
        <div className="local-model-actions local-model-failed">
          <ErrorMessage error={failure} />
          <p className="row">
            <button type="button" className="primary" autoFocus={acted} onClick={() => start(sel)}>Retry</button>
          </p>
          {chooseRow}
          <DownloadURL initial={view.downloadUrl} onSaved={load} lead="Or download it from a mirror:" />
        </div>
      )}
      {sel && !failure && (
        <ModelActions model={sel} progress={selProgress} manage={manage} focus={acted}
          onDownload={() => start(sel)} onCancel={() => cancel(sel)} onChanged={load} onError={setErr} />
      )}
      {others.length > 0 && (
        <ul className="local-model-downloads" aria-label="Other downloads">
          {others.map((m) => <li key={m.name}><DownloadProgress model={m} progress={progress[m.name]} onCancel={() => cancel(m)} /></li>)}
        </ul>
      )}
      {files.length > 0 && (
        <ul className="local-model-files" aria-label="GGUF files you chose">
          {files.map((m) => (
            <li key={m.name}>
              <span>
                <strong>{m.name}</strong> <code className="small muted" title={m.path}>{m.path}</code>{' '}
                <span className="small">{formatBytes(m.size)}{m.ram > 0 && ` · needs about ${formatBytes(m.ram)} of memory`}</span>
              </span>
              {manage && <RemoveButton model={m} onDone={load} onError={setErr} />}
            </li>
          ))}
        </ul>
      )}
      {!failure && chooseRow}
      {manage && !failure && <DownloadURL initial={view.downloadUrl} onSaved={load} />}
      {err && <div className="alert" role="alert">{err}</div>}
    </div>
  );
}

/** DownloadProgress is a running download: its bar, how much arrived, and Cancel. */
function DownloadProgress({ model: m, progress: p, focus = false, onCancel }: { model: Model; progress?: Progress; focus?: boolean; onCancel: () => void }) {
  const done = p?.done ?? m.partial;
  const total = p?.total || m.size;
  return (
    <div className="local-model-actions">
      <progress value={done} max={total} aria-label={`Downloading ${m.title}`} />
      <span className="small" aria-live="polite">{formatBytes(done)} of {formatBytes(total)} ({Math.floor((done * 100) / total)}%)</span>
      <button type="button" autoFocus={focus} onClick={onCancel} aria-label={`Cancel the download of ${m.title}`}>Cancel</button>
    </div>
  );
}

/** ModelActions is what can be done with the selected catalog model now: download, watch it, cancel, resume, remove (a failed download is LocalModels' own). */
function ModelActions({ model: m, progress: p, manage, focus, onDownload, onCancel, onChanged, onError }: {
  model: Model; progress?: Progress; manage: boolean; focus: boolean;
  onDownload: () => void; onCancel: () => void; onChanged: () => void; onError: (e: string) => void;
}) {
  const running = p ? p.state === 'downloading' : m.downloading;
  if (m.installed && !running) {
    return (
      <div className="local-model-actions" role="status">
        <span className="notice">{m.title} is ready.</span>
        {manage && <RemoveButton model={m} onDone={onChanged} onError={onError} />}
      </div>
    );
  }
  if (running) return <DownloadProgress model={m} progress={p} focus={focus} onCancel={onCancel} />;
  const partial = p?.state === 'cancelled' ? p.done : m.partial;
  return (
    <div className="local-model-actions">
      <button type="button" className="primary" autoFocus={focus} onClick={onDownload}>
        {partial > 0 ? `Resume download (${formatBytes(partial)} of ${formatBytes(m.size)} here)` : `Download ${m.title} (${formatBytes(m.size)})`}
      </button>
      {partial > 0 && manage && (
        <button type="button" onClick={() => call(() => DiscardLocalModelDownload(m.name)).then(onChanged, (e: unknown) => onError(message(e)))}>Discard the partial download</button>
      )}
    </div>
  );
}

/**
 * FoundModels is "Found on this computer": the GGUF models Ollama and LM
 * Studio keep here, each with Add (it runs as it is; nothing is copied).
 * Those added already say under which name.
 */
function FoundModels({ version, onAdded, onError }: { version: number; onAdded: (m: Model) => void; onError: (e: string) => void }) {
  const [found, setFound] = useState<gui.FoundModelView[]>([]);
  const [adding, setAdding] = useState('');
  useEffect(() => {
    if (!hasMethod('SettingsPage', 'FoundLocalModels')) return;
    call(FoundLocalModels).then(setFound, () => setFound([])); // nothing found is nothing to offer
  }, [version]);
  if (found.length === 0) return null;
  const add = (f: gui.FoundModelView) => {
    setAdding(f.path);
    onError('');
    call(() => AddLocalModelFile(f.path)).then((m) => {
      setFound((all) => all.map((x) => (x.path === f.path ? { ...x, added: m.name } : x)));
      onAdded(m);
    }, (e: unknown) => onError(message(e))).finally(() => setAdding(''));
  };
  return (
    <section className="local-model-found" aria-labelledby="local-model-found">
      <h4 id="local-model-found">Found on this computer</h4>
      <ul className="local-model-files" aria-label="Models found on this computer">
        {found.map((f) => (
          <li key={f.path}>
            <span>
              <strong>{f.name}</strong> <span className="small muted">{f.app}</span>{' '}
              <code className="small muted" title={f.path}>{f.path}</code> <span className="small">{formatBytes(f.size)}</span>
            </span>
            {f.added
              ? <span className="small">added as <strong>{f.added}</strong></span>
              : <button type="button" disabled={adding === f.path} onClick={() => add(f)} aria-label={`Add ${f.name} from ${f.app}`}>Add</button>}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** ChooseError is Choose a GGUF file…'s error, brought into view when it appears. */
function ChooseError({ error }: { error: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => { ref.current?.scrollIntoView?.({ block: 'nearest' }); }, [error]); // a block: Chromium's scrollIntoView returns a promise, which an effect must not
  return <div ref={ref}><ErrorMessage error={error} label="Choose a GGUF file" /></div>;
}

/** RemoveButton deletes a downloaded model (or forgets a chosen file) after a confirmation. */
function RemoveButton({ model: m, onDone, onError }: { model: Model; onDone: () => void; onError: (e: string) => void }) {
  const [confirm, setConfirm] = useState(false);
  if (!confirm) return <button type="button" onClick={() => setConfirm(true)} aria-label={`Remove ${m.title}`}>Remove</button>;
  const what = m.chosen ? `Forget ${m.title}? The file stays where it is.` : `Delete ${m.title} (${formatBytes(m.size)}) from this computer?`;
  return (
    <span role="alertdialog" aria-label={`Remove ${m.title}?`}>
      {what}{' '}
      <button type="button" className="danger" autoFocus
        onClick={() => call(() => RemoveLocalModel(m.name)).then(() => { setConfirm(false); onDone(); }, (e: unknown) => onError(message(e)))}>
        {m.chosen ? 'Forget' : 'Delete'}
      </button>{' '}
      <button type="button" onClick={() => setConfirm(false)}>Cancel</button>
    </span>
  );
}

/** DownloadURL is where models download from: their own URLs, a mirror, or a folder. */
function DownloadURL({ initial, onSaved, lead }: { initial: string; onSaved: () => void; lead?: string }) {
  const [url, setURL] = useState(initial);
  const [state, setState] = useState('');
  const [err, setErr] = useState('');
  useEffect(() => { setURL(initial); }, [initial]);
  const save = (e: React.FormEvent) => {
    e.preventDefault();
    setErr('');
    call(() => SetModelDownloadURL(url.trim())).then(() => { setState('Saved'); onSaved(); }, (x: unknown) => setErr(message(x)));
  };
  return (
    <form className="row" aria-label="Model download URL" onSubmit={save}>
      {lead && <span>{lead}</span>}
      <label>Download URL{' '}
        <input value={url} onChange={(e) => { setURL(e.target.value); setState(''); }} placeholder="each model's own Hugging Face URL"
          aria-describedby="model-url-help" size={40} />
      </label>
      <button type="submit">Save download URL</button>
      {state && <span className="small" role="status">{state}</span>}
      <p id="model-url-help" className="small muted">A mirror's https:// address (the model's file name is added to it) or a folder on this computer. The file must still match its pinned SHA-256.</p>
      {err && <div className="alert" role="alert">{err}</div>}
    </form>
  );
}
