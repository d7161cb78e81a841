import { useEffect, useRef, useState } from 'react';
import { call, EventCloseWithApps, hasRuntime, KeepRunning, on, QuitAnyway, StayOpen, type gui } from '../backend';
import { message } from '../errors';

/**
 * CloseWithAppsDialog asks, when the window is closed while other apps use
 * Switchboard's servers, whether to keep running in the background or quit
 * (each app's serve then starts the servers itself).
 */
export function CloseWithAppsDialog() {
  const [apps, setApps] = useState<gui.CloseView['apps'] | null>(null);
  const [err, setErr] = useState('');
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => (hasRuntime() ? on(EventCloseWithApps, (v: gui.CloseView) => { setErr(''); setApps(v.apps ?? []); }) : undefined), []);
  useEffect(() => { if (apps) keep.current?.focus(); }, [apps]);
  if (!apps) return null;
  const names = [...new Set(apps.map((a) => a.title || a.name || 'an unnamed app'))];
  const act = (f: () => Promise<void>) => call(f).then(() => setApps(null), (x: unknown) => setErr(message(x)));
  return (
    <div className="modal-backdrop">
      <div className="card close-apps-dialog" role="dialog" aria-modal="true" aria-labelledby="close-apps-title"
        onKeyDown={(e) => { if (e.key === 'Escape') void act(StayOpen); }}>
        <h2 id="close-apps-title">{apps.length} {apps.length === 1 ? 'app uses' : 'apps use'} Switchboard’s servers</h2>
        <p>{names.join(', ')} {names.length === 1 ? 'is' : 'are'} using the servers this window runs. Keep Switchboard running in the background and they go on sharing them; open Switchboard again to bring the window back. If you quit, each app’s connection starts the servers itself.</p>
        {err && <div className="bad" role="alert">{err}</div>}
        <div className="client-app-row">
          <button type="button" className="primary" ref={keep} onClick={() => void act(KeepRunning)}>Keep running in the background</button>
          <button type="button" onClick={() => void act(QuitAnyway)}>Quit anyway</button>
          <button type="button" onClick={() => void act(StayOpen)}>Cancel</button>
        </div>
      </div>
    </div>
  );
}
