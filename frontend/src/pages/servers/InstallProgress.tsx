import { useEffect, useState } from 'react';
import type { gui } from '../../backend';

/** elapsed formats whole seconds as m:ss. */
export function elapsed(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * InstallProgress: while a server's package is downloaded (state
 * "installing"), how long it has taken and the package manager's last line.
 */
export function InstallProgress({ server: s }: { server: gui.ServerView }) {
  const since = s.since ? Date.parse(s.since) : Date.now();
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(t);
  }, []);
  return (
    <div className="install-progress" role="status" aria-label={`Downloading ${s.name}`}>
      <span>Downloading the package… <span className="install-elapsed">{elapsed((now - since) / 1000)}</span></span>
      {s.progress && <code className="install-line">{s.progress}</code>}
    </div>
  );
}
