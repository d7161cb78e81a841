import { useEffect, useState, type FormEvent } from 'react';
import { LocalModelLog, LocalModelRun, SetLocalModelRun, StopLocalModel, call, hasBackend, hasMethod } from '../../backend';
import type { gui } from '../../backend';
import { refreshLocalModel, useLocalModel } from '../../localmodel';
import { message } from '../../errors';
import { formatBytes } from '../../components/LocalModels';

/** MiB: the view's memory figures are whole mebibytes; they are shown as the models' sizes are (formatBytes). */
const MiB = 1 << 20;

const STATE: Record<string, string> = {
  stopped: 'Not loaded — it starts with the next message to it',
  starting: 'Loading the model…',
  ready: 'Ready',
  restarting: 'Stopped unexpectedly; starting again…',
  failed: 'Could not start',
};

/**
 * LocalModelStatus is the model on this computer as Settings → Models
 * shows it: loaded or not, the context it runs with and what that costs
 * in memory, why it stopped, its log, and Stop to free the memory.
 */
export function LocalModelStatus() {
  const s = useLocalModel();
  const [log, setLog] = useState<string[] | null>(null);
  const [err, setErr] = useState('');
  useEffect(() => {
    if (hasBackend()) refreshLocalModel().catch((e: unknown) => setErr(message(e)));
  }, []);
  if (!s) return err ? <div className="alert" role="alert">{err}</div> : null;
  const busy = s.state === 'starting' || s.state === 'restarting';
  const showLog = () => call(() => LocalModelLog(40)).then(setLog, (e: unknown) => setErr(message(e)));
  return (
    <section className="local-model-status" aria-label="Model on this computer">
      <h4>On this computer</h4>
      <p role="status" className={s.state === 'failed' || s.state === 'restarting' ? 'warn' : undefined}>
        {busy && <span aria-hidden="true">⏳ </span>}{STATE[s.state] ?? s.state}
        {s.model && <> · <strong>{s.model}</strong></>}
      </p>
      {s.model && s.context > 0 && (
        <p className="small muted">
          Context {s.context.toLocaleString()} tokens ({s.why}); KV cache {s.quantizedKv ? 'q8_0 (memory is short)' : 'f16'}, {s.kvMemoryMb < 1 ? 'under 1 MB' : formatBytes(s.kvMemoryMb * MiB)}
          {' '}· about {formatBytes(s.memoryMb * MiB)} in all · {s.threads} {s.threads === 1 ? 'thread' : 'threads'}
          {s.cpu && <> · CPU backend <code title="ggml's build for this processor's generation, which the runtime chose">{s.cpu}</code></>}
        </p>
      )}
      {s.err && (s.state === 'failed' || s.state === 'restarting') && (
        <p className="alert" role="alert">{s.err}. Its log says more: <code>{s.logPath}</code></p>
      )}
      {s.noRuntime && <p className="alert" role="alert">{s.noRuntime}</p>}
      {err && <div className="alert" role="alert">{err}</div>}
      <div className="row-actions">
        <button type="button" onClick={showLog}>Show log</button>{' '}
        {s.state !== 'stopped' && s.state !== 'failed' && (
          <button type="button" onClick={() => call(StopLocalModel).catch((e: unknown) => setErr(message(e)))}>Stop (free its memory)</button>
        )}
      </div>
      <RunSettings onError={setErr} />
      {log && (
        <pre className="log" aria-label="Local model log" tabIndex={0}>{log.length ? log.join('\n') : 'Nothing logged yet: it has not run.'}</pre>
      )}
    </section>
  );
}

const CONTEXTS = [4096, 8192, 16384, 32768, 65536];

/** RunSettings chooses the context size and threads; Automatic fits them to the machine. */
function RunSettings({ onError }: { onError: (e: string) => void }) {
  const [run, setRun] = useState<gui.LocalRunView | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (hasMethod('SettingsPage', 'LocalModelRun')) call(LocalModelRun).then(setRun, (e: unknown) => onError(message(e)));
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  if (!run) return null;
  const save = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    call(() => SetLocalModelRun(run.context, run.threads)).then(() => setSaved(true), (err: unknown) => onError(message(err)));
  };
  const contexts = CONTEXTS.includes(run.context) || run.context === 0 ? CONTEXTS : [...CONTEXTS, run.context].sort((a, b) => a - b);
  return (
    <form className="local-model-run" onSubmit={save} aria-label="How it runs">
      <label>Context
        <select value={run.context} onChange={(e) => { setSaved(false); setRun({ ...run, context: Number(e.target.value) }); }}>
          <option value={0}>Automatic (fits the free memory)</option>
          {contexts.map((n) => <option key={n} value={n}>{n.toLocaleString()} tokens</option>)}
        </select>
      </label>{' '}
      <label>Threads
        <select value={run.threads} onChange={(e) => { setSaved(false); setRun({ ...run, threads: Number(e.target.value) }); }}>
          <option value={0}>Automatic</option>
          {Array.from({ length: Math.max(run.cpus, run.threads) }, (_, i) => i + 1).map((n) => <option key={n} value={n}>{n}</option>)}
        </select>
      </label>{' '}
      <button type="submit">Apply</button>
      {saved && <span className="muted small" role="status"> Saved: the next message starts the model with it.</span>}
    </form>
  );
}
