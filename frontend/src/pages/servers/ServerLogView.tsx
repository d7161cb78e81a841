import { useEffect, useState } from 'react';
import { ServerLogEntries } from '../../backend';
import type { host } from '../../backend';

/** The MCP log levels (RFC 5424), least severe first, as servers send them. */
export const logLevels = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** entryText is how a log line reads: stderr as written, MCP messages as "[level] logger: text". */
export function entryText(e: host.LogEntry): string {
  if (!e.level) return e.text;
  return `[${e.level}] ${e.logger ? `${e.logger}: ` : ''}${e.text}`;
}

/**
 * LogTail shows a server's log: what it wrote to stderr and the MCP log
 * messages it sent (notifications/message), with their level. While open it
 * follows new lines; the level filter keeps messages at that level and above
 * (stderr lines have no level and show under "All" only).
 */
export function LogTail({ name, initial }: { name: string; initial: string[] }) {
  const [open, setOpen] = useState(false);
  const [minLevel, setMinLevel] = useState('');
  const [entries, setEntries] = useState<host.LogEntry[] | null>(null);
  useEffect(() => {
    if (!open) return;
    let live = true;
    const poll = () =>
      ServerLogEntries(name, minLevel, 200).then(
        (l) => live && setEntries(l),
        () => undefined,
      );
    void poll();
    const t = setInterval(poll, 1000);
    return () => {
      live = false;
      clearInterval(t);
    };
  }, [open, name, minLevel]);
  const lines = entries ? entries.map(entryText) : initial;
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Log ({lines.length} recent lines)</summary>
      <label className="small">
        Show{' '}
        <select aria-label={`Log level filter of ${name}`} value={minLevel} onChange={(e) => setMinLevel(e.target.value)}>
          <option value="">All (stderr and messages)</option>
          {logLevels.map((l) => <option key={l} value={l}>{l} and above</option>)}
        </select>
      </label>
      <pre className="log" aria-label={`Log of ${name}`}>
        {entries
          ? entries.length
            ? entries.map((e, i) => (
                <div key={i} className="log-line" data-level={e.level || undefined}>{entryText(e)}</div>
              ))
            : minLevel ? `(no messages at ${minLevel} or above)` : '(nothing logged yet)'
          : lines.length ? lines.join('\n') : '(nothing written to stderr yet)'}
      </pre>
    </details>
  );
}
