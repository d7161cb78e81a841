import { useRef, useState } from 'react';
import type { host } from '../backend';
import { decodeText, isText } from '../blobtext';
import { useDismiss } from '../dismiss';
import { bytes, count } from '../plural';
import './ContentBlocks.css';

type Content = host.ContentView;

/**
 * ContentBlocks shows a tool result's content blocks as the Tools page and
 * the chat's tool cards both do: text, images as thumbnails that open
 * larger, audio with its controls, embedded resources with their URI and
 * text (or their size when binary). resource_link blocks are left to
 * ResourceLinks (chips that read the resource). With text false, text
 * blocks are left out (the card shows the text itself, capped or folded);
 * hide is a text block not to show (the outputSchema note, shown with the
 * structured tree). A block the window was not sent (too large: data
 * empty, size set) is a line saying what and how large it is.
 */
export function ContentBlocks({ content, tool, text = true, hide = '' }: { content: Content[]; tool: string; text?: boolean; hide?: string }) {
  const images = content.filter((c) => c.type === 'image').length;
  let image = 0;
  return (
    <>
      {content.map((c, i) => {
        switch (c.type) {
          case 'text':
            return text && !(hide && c.text === hide) ? <pre key={i} className="result-text">{c.text}</pre> : null;
          case 'image':
            image++;
            return <ImageBlock key={i} block={c} alt={imageAlt(tool, image, images)} />;
          case 'audio':
            return c.data
              ? <audio key={i} className="content-audio" controls src={dataURL(c.mimeType, c.data)} aria-label={`Audio from ${tool}`} />
              : <Omitted key={i} what={`Audio (${c.mimeType || 'unknown type'})`} size={c.size} />;
          case 'resource':
            return <EmbeddedResource key={i} block={c} tool={tool} />;
          default:
            return null; // resource_link: ResourceLinks' chips
        }
      })}
    </>
  );
}

/** blocksSummary names what a result holds besides text: "1 image", "2 images, 1 audio clip"; "" for none. */
export function blocksSummary(content: Content[]): string {
  const n = (type: string) => content.filter((c) => c.type === type).length;
  const parts = [
    [n('image'), 'image'],
    [n('audio'), 'audio clip'],
    [n('resource'), 'resource'],
    [n('resource_link'), 'resource link'],
  ] as const;
  return parts.filter(([k]) => k > 0).map(([k, noun]) => count(k, noun)).join(', ');
}

/** imageAlt is an image's text for those who cannot see it: whose it is, and which when there are several. */
function imageAlt(tool: string, n: number, of: number): string {
  return `Image from ${tool}${of > 1 ? ` (${n} of ${of})` : ''}`;
}

function dataURL(mimeType: string, data: string): string {
  return `data:${mimeType || 'application/octet-stream'};base64,${data}`;
}

/** decodedSize is how many bytes base64 text holds. */
export function decodedSize(b64: string): number {
  const pad = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((b64.length * 3) / 4) - pad);
}

/** Omitted stands for a block the window was not sent: it says what and how large. */
function Omitted({ what, size }: { what: string; size?: number }) {
  return (
    <p className="muted small content-omitted">
      {what}{size ? `, ${bytes(size)}` : ''}: too large to show here.
    </p>
  );
}

function ImageBlock({ block, alt }: { block: Content; alt: string }) {
  if (!block.data) return <Omitted what={`${alt} (${block.mimeType || 'unknown type'})`} size={block.size} />;
  return <Thumbnail src={dataURL(block.mimeType, block.data)} alt={alt} />;
}

/**
 * Thumbnail is an image drawn small (bounded in both directions); a click,
 * Enter or Space opens it at full size in a dialog that Escape or Close
 * shuts, focus going back to the thumbnail.
 */
export function Thumbnail({ src, alt }: { src: string; alt: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="content-thumb" onClick={() => setOpen(true)} aria-haspopup="dialog" title="Open larger">
        <img src={src} alt={alt} />
      </button>
      {open && <ImageViewer src={src} alt={alt} onClose={() => setOpen(false)} />}
    </>
  );
}

function ImageViewer({ src, alt, onClose }: { src: string; alt: string; onClose: () => void }) {
  const panel = useRef<HTMLDivElement>(null);
  const close = useRef<HTMLButtonElement>(null);
  useDismiss(true, onClose, { panel, initial: close, modal: true });
  return (
    <div className="modal-backdrop" onClick={(e) => { if (e.target === e.currentTarget) onClose(); }}>
      <div className="card image-viewer" role="dialog" aria-modal="true" aria-label={alt} ref={panel}>
        <div className="image-viewer-head">
          <span className="small">{alt}</span>
          <button type="button" ref={close} onClick={onClose}>Close</button>
        </div>
        <img src={src} alt={alt} />
      </div>
    </div>
  );
}

/** EmbeddedResource is a resource a tool put in its result: URI and type, then its text, its image or its size. */
function EmbeddedResource({ block, tool }: { block: Content; tool: string }) {
  const mime = block.mimeType;
  let body;
  if (block.text || (!block.data && !block.size)) {
    body = block.text ? <pre className="result-text" aria-label={`Resource ${block.uri}`}>{block.text}</pre> : <p className="muted small">(empty)</p>;
  } else if (!block.data) {
    body = <Omitted what={`Binary ${mime || 'data'}`} size={block.size} />;
  } else if (isText(mime)) {
    body = <pre className="result-text" aria-label={`Resource ${block.uri}`}>{decodeText(block.data)}</pre>;
  } else if (mime.startsWith('image/')) {
    body = <Thumbnail src={dataURL(mime, block.data)} alt={`${block.uri} from ${tool}`} />;
  } else {
    body = <p className="muted small">Binary {mime || 'data'}, {bytes(decodedSize(block.data))}</p>;
  }
  return (
    <div className="result-resource">
      <code>{block.uri}</code> {mime && <span className="muted small">{mime}</span>}
      {body}
    </div>
  );
}
