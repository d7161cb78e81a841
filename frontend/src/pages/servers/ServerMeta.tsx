import { useState } from 'react';
import { call, SetServerMeta } from '../../backend';
import type { gui } from '../../backend';
import { plainLine, refreshServers, type ServerView } from '../../servers';
import { message } from '../../errors';
import { ProfileOverrides } from './ProfileOverrides';
import { ExternalLink } from '../../components/ExternalLink';

/** ServerMetaLine shows a server's description, tags, docs link and what uses it. */
export function ServerMetaLine({ server: s }: { server: ServerView }) {
  const tags = s.meta?.tags ?? [];
  return (
    <div className="server-meta">
      {/* Plain text on one line (a description can be Markdown); the whole of it in the tooltip. */}
      {s.description && <p className="small server-desc" title={s.description}>{plainLine(s.description)}</p>}
      <div className="row small">
        {tags.map((t) => <span key={t} className="tag">{t}</span>)}
        {s.docsUrl && <ExternalLink href={s.docsUrl}>Docs</ExternalLink>}
        {s.version && <span className="muted">v{s.version.replace(/^v/, '')}</span>}
        {s.protocol && <span className="muted" title="The revision of the Model Context Protocol this server speaks">MCP {s.protocol}</span>}
        {(s.usedBy ?? []).length > 0 && <span className="muted">Used by {s.usedBy.join(', ')}</span>}
      </div>
      {s.instructions && (
        <details className="small">
          <summary>What the server says about itself</summary>
          <p className="instructions">{s.instructions}</p>
        </details>
      )}
    </div>
  );
}

/** ServerMetaForm edits what the user says about a server. */
export function ServerMetaForm({ server: s, onDone }: { server: ServerView; onDone: () => void }) {
  const m: gui.MetaView = s.meta ?? { description: '', tags: [], docsUrl: '', color: '', icon: '', template: '' };
  const [description, setDescription] = useState(m.description);
  const [tags, setTags] = useState((m.tags ?? []).join(', '));
  const [docsUrl, setDocsUrl] = useState(m.docsUrl);
  const [color, setColor] = useState(m.color);
  const [icon, setIcon] = useState(m.icon);
  const [err, setErr] = useState('');
  const save = async () => {
    setErr('');
    try {
      await call(() => SetServerMeta(s.name, {
        description, docsUrl, color, icon, template: m.template,
        tags: tags.split(',').map((t) => t.trim()).filter(Boolean),
      }));
      await refreshServers();
      onDone();
    } catch (e) {
      setErr(message(e));
    }
  };
  return (
    <form className="card meta-form" aria-label={`Details of ${s.name}`} onSubmit={(e) => { e.preventDefault(); void save(); }}
      onKeyDown={(e) => { if (e.key === 'Escape') onDone(); }}>
      <label>Description <input value={description} autoFocus placeholder={s.description} onChange={(e) => setDescription(e.target.value)} /></label>
      <label>Tags <input value={tags} placeholder="work, code" onChange={(e) => setTags(e.target.value)} /></label>
      <label>Docs URL <input type="url" value={docsUrl} onChange={(e) => setDocsUrl(e.target.value)} /></label>
      <div className="row">
        <label>Colour <input type="color" value={color || '#888888'} onChange={(e) => setColor(e.target.value)} /></label>
        {color && <button type="button" className="link small" onClick={() => setColor('')}>No colour</button>}
        <label>Icon <input value={icon} maxLength={4} size={4} placeholder="GH" onChange={(e) => setIcon(e.target.value)} /></label>
      </div>
      {err && <div className="alert" role="alert">{err}</div>}
      <ProfileOverrides server={s} />
      <div className="row">
        <button type="submit" className="primary">Save details</button>
        <button type="button" onClick={onDone}>Cancel</button>
      </div>
    </form>
  );
}
