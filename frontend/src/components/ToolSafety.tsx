import { acceptChange, lineDiff, rejectChange, useServerSafety, type ToolChange, type Warning } from '../safety';
import { Icon } from './Icon';
import { useAction } from './useAction';

/** WarningList shows toolcheck's findings: the reason, and the text with invisible characters written out. */
export function WarningList({ warnings, label }: { warnings: Warning[]; label: string }) {
  if (warnings.length === 0) return null;
  return (
    <ul className="warning-list" aria-label={label}>
      {warnings.map((w, i) => (
        <li key={i}>
          <strong>{w.reason}</strong> <span className="muted small">({w.where})</span>
          <code className="warning-excerpt">{w.excerpt}</code>
        </li>
      ))}
    </ul>
  );
}

/** WarningBadge marks a tool or server whose definitions look like they hide instructions. */
export function WarningBadge({ warnings, what }: { warnings: Warning[]; what: string }) {
  if (warnings.length === 0) return null;
  const reasons = [...new Set(warnings.map((w) => w.reason))].join('; ');
  return <span className="badge warn" title={reasons} aria-label={`Warning: ${what}: ${reasons}`}><Icon name="warning" size={13} /> {what}</span>;
}

/**
 * ServerSafety is a server's part of the Servers page: tools withheld
 * because their definition changed (with the diff and Accept / Reject),
 * tools new since the server was first seen, and tools whose description
 * looks poisoned.
 */
export function ServerSafety({ server }: { server: string }) {
  const { changes, fresh, warnings } = useServerSafety(server);
  if (changes.length === 0 && fresh.length === 0 && warnings.length === 0) return null;
  const all = warnings.flatMap((w) => w.warnings);
  return (
    <div className="server-safety">
      <div className="row">
        {changes.length > 0 && <span className="badge badge-error">{changes.length} changed {changes.length === 1 ? 'tool' : 'tools'} withheld</span>}
        <WarningBadge warnings={all} what={`${warnings.length} ${warnings.length === 1 ? 'tool' : 'tools'} with warnings`} />
        {fresh.map((t) => <span key={t} className="badge" aria-label={`new tool ${t}`}>new: {t}</span>)}
      </div>
      {changes.map((c) => <ChangeReview key={c.tool} change={c} />)}
      {warnings.length > 0 && (
        <details className="tool-warnings">
          <summary>Why the warnings</summary>
          {warnings.map((w) => (
            <div key={w.name}>
              <code>{w.name}</code>
              <WarningList warnings={w.warnings} label={`Warnings of ${w.name}`} />
            </div>
          ))}
        </details>
      )}
    </div>
  );
}

/**
 * ChangeReview shows the trusted and the new definition of a tool as a line diff, with Accept and
 * Reject; when the new definition has warnings, Reject leads and Accept reads "Accept anyway".
 */
function ChangeReview({ change: c }: { change: ToolChange }) {
  const { busy, err, act } = useAction();
  return (
    <section className="change-review" aria-label={`Changed tool ${c.tool}`}>
      <p>
        The definition of <code>{c.tool}</code> changed since you trusted it. It is withheld from chats and from <code>switchboard serve</code> until you review it.
        {c.rejected && <> You rejected this change; it stays withheld while the server lists it.</>}
      </p>
      <pre className="diff" aria-label={`Diff of ${c.tool}: old definition against the new one`}>
        {lineDiff(c.old, c.new).map((l, i) => (
          <div key={i} className={l.kind === '+' ? 'diff-add' : l.kind === '-' ? 'diff-del' : 'diff-same'}>
            {l.kind} {l.text}
          </div>
        ))}
      </pre>
      <WarningList warnings={c.warnings} label={`Warnings in the new definition of ${c.tool}`} />
      {c.warnings.length > 0 ? (
        // The new text looks like it hides instructions: the safe choice leads,
        // and accepting takes a deliberate second button.
        <div className="row">
          <button type="button" className="primary" disabled={busy !== '' || c.rejected} onClick={act('reject', () => rejectChange(c.server, c.tool))}>Reject</button>
          <button type="button" disabled={busy !== ''} onClick={act('accept', () => acceptChange(c.server, c.tool))}>Accept anyway</button>
        </div>
      ) : (
        <div className="row">
          <button type="button" className="primary" disabled={busy !== ''} onClick={act('accept', () => acceptChange(c.server, c.tool))}>Accept</button>
          <button type="button" className="danger" disabled={busy !== '' || c.rejected} onClick={act('reject', () => rejectChange(c.server, c.tool))}>Reject</button>
        </div>
      )}
      {err && <div className="alert" role="alert">{err}</div>}
    </section>
  );
}
