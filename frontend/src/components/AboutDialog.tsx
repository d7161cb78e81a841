import { useRef, useState } from 'react';
import { useDismiss } from '../dismiss';
import { OpenLogFolder, versionLabel } from '../backend';
import { message } from '../errors';
import { useWelcome, welcome } from '../welcome';
import { ThirdPartyLicences } from './ThirdPartyLicences';

/** AboutDialog is Help → About: version, data dir, log folder (opens it), licences. */
export function AboutDialog() {
  const about = useWelcome((s) => s.about);
  const [err, setErr] = useState('');
  const close = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  // Esc closes it; focus returns to what opened it (About Switchboard, or where it was for Help → About).
  useDismiss(!!about, () => welcome.closeAbout(), { panel, initial: close, modal: true });
  if (!about) return null;
  return (
    <div className="modal-backdrop">
      <div className="card about" role="dialog" aria-modal="true" aria-labelledby="about-title" ref={panel}>
        <h2 id="about-title">About {about.name}</h2>
        <dl>
          <dt>Version</dt><dd>{versionLabel(about.version)} <span className="muted small">({about.go})</span></dd>
          <dt>Data folder</dt><dd><code>{about.dataDir}</code></dd>
          <dt>Log folder</dt>
          <dd>
            <code>{about.logDir}</code>{' '}
            <button type="button" onClick={() => OpenLogFolder().catch((e: unknown) => setErr(message(e)))}>Open log folder</button>
          </dd>
          <dt>Licence</dt><dd>{about.licence}</dd>
        </dl>
        <ThirdPartyLicences notices={about.thirdParty} />
        {err && <div className="alert" role="alert">{err}</div>}
        <div className="wizard-actions">
          <button type="button" ref={close} onClick={() => welcome.closeAbout()}>Close</button>
        </div>
      </div>
    </div>
  );
}
