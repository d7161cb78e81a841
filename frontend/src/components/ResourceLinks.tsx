import { useEffect, useRef, useState } from 'react';
import { ReadResource } from '../backend';
import type { gui, host } from '../backend';
import { decodeText, isText } from '../blobtext';
import { message } from '../errors';

type Content = host.ContentView;

/**
 * ResourceLinks shows a result's resource_link blocks as chips; a chip
 * opens the resource (resources/read on the server that returned the link)
 * in a viewer.
 */
export function ResourceLinks({ content, server }: { content: Content[]; server: string }) {
  const links = content.filter((c) => c.type === 'resource_link');
  const [open, setOpen] = useState<Content | null>(null);
  if (links.length === 0) return null;
  return (
    <>
      <ul className="resource-links" aria-label="Resource links">
        {links.map((l, i) => (
          <li key={`${l.uri}-${i}`}>
            <button type="button" className="chip" onClick={() => setOpen(l)} title={l.description || l.uri}>
              {l.title || l.name || l.uri}
              {l.mimeType && <span className="muted small"> {l.mimeType}</span>}
            </button>
          </li>
        ))}
      </ul>
      {open && <ResourceViewer server={server} link={open} onClose={() => setOpen(null)} />}
    </>
  );
}

/** ResourceViewer reads a resource and shows its text, image or size. */
function ResourceViewer({ server, link, onClose }: { server: string; link: Content; onClose: () => void }) {
  const [res, setRes] = useState<gui.ResourceReadView | null>(null);
  const [err, setErr] = useState('');
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    close.current?.focus();
    let live = true;
    ReadResource(server, link.uri).then(
      (r) => live && setRes(r),
      (e: unknown) => live && setErr(message(e)),
    );
    return () => {
      live = false;
    };
  }, [server, link.uri]);
  const title = link.title || link.name || link.uri;
  return (
    <div className="resource-viewer" role="dialog" aria-label={`Resource ${title}`}
      onKeyDown={(e) => { if (e.key === 'Escape') onClose(); }}>
      <div className="resource-viewer-head">
        <strong>{title}</strong> <code className="small">{link.uri}</code>
        <span className="muted small"> from {server}</span>
        <button type="button" ref={close} onClick={onClose} aria-label="Close the resource">Close</button>
      </div>
      {!res && !err && <p className="muted">Reading…</p>}
      {err && <div className="alert" role="alert">{err}</div>}
      {res?.contents.map((c, i) => (
        <div key={i}>
          {c.text || isText(c.mimeType) ? (
            <pre className="result-text" aria-label="Resource text">{c.text || decodeText(c.blob)}</pre>
          ) : c.mimeType.startsWith('image/') ? (
            <img alt={`${title} ${i + 1}`} src={`data:${c.mimeType};base64,${c.blob}`} />
          ) : (
            <p className="muted">Binary {c.mimeType || 'data'}, {Math.floor((c.blob.length * 3) / 4)} bytes</p>
          )}
        </div>
      ))}
    </div>
  );
}
