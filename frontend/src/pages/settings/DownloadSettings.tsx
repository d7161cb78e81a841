import { useState } from 'react';
import { DownloadTimeoutSeconds, SetDownloadTimeoutSeconds } from '../../backend';
import { useSettingsForm } from '../../components/useSettingsForm';

/** DownloadSettings: how long npx, uvx and docker may download a server's package before its first start. */
export function DownloadSettings() {
  const [minutes, setMinutes] = useState('5');
  const { note, err, edit, save, formRef, standalone } = useSettingsForm(() => DownloadTimeoutSeconds(), (s) => setMinutes(String(Math.round((s / 60) * 10) / 10)));
  return (
    <form ref={formRef} className="download-settings" noValidate aria-label="Package downloads" onSubmit={(e) => { e.preventDefault(); void save(() => SetDownloadTimeoutSeconds(Math.round(Number(minutes) * 60))); }}>
      <p className="muted small">Before an <code>npx</code>, <code>uvx</code> or <code>docker</code> server first starts, its package is downloaded (state Installing). The download has its own time limit; the server's <code>startupTimeout</code> only counts the handshake after it.</p>
      <label>Download time limit <input type="number" min={0.5} max={120} step={0.5} value={minutes} onChange={(e) => { edit(); setMinutes(e.target.value); }} /> minutes</label>
      <div className="row">
        {standalone && <button type="submit">Save download limit</button>}
        {note && <span className="small muted" role="status">{note}</span>}
      </div>
      {err && <div className="alert" role="alert">{err}</div>}
    </form>
  );
}
