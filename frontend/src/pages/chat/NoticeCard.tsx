import { dismissNotice, type Notice } from '../../chat';

const TITLE: Record<string, string> = {
  sampling: 'Sampling request refused',
  'app-context': 'App text withheld from the model',
};

/**
 * NoticeCard tells the user what Switchboard refused or held back on their behalf — a server's
 * request to use the model, an MCP App's text for the model — and why; it stays until dismissed.
 */
export function NoticeCard({ n }: { n: Notice }) {
  const title = TITLE[n.kind] ?? 'Refused';
  return (
    <div className="notice-card" role="status" aria-label={title} data-testid="notice-card">
      <p>
        <strong>{title}</strong>
        {n.count > 1 && <span className="muted small"> ({n.count} times)</span>}
      </p>
      <p>{n.text}</p>
      {n.kind === 'sampling' && !n.text.includes('Settings') && <p className="muted small">Settings → Chat → Sampling decides what servers may ask of the model.</p>}
      <div className="row">
        <button type="button" onClick={() => dismissNotice(n.id)} aria-label={`Dismiss: ${title}`}>Dismiss</button>
      </div>
    </div>
  );
}
