import { answerElicit, type Elicit } from '../chat';
import { useEffect, useRef, useState } from 'react';
import { externalURL, openExternal } from './ExternalLink';
import { SchemaForm } from './LazySchemaForm';
import { Visible } from './Visible';

/** ElicitForm renders a server's elicitation request as a form built from its schema, defaults filled in; the server's text is shown through Visible. */
export function ElicitForm({ req }: { req: Elicit }) {
  if (req.mode === 'url') return <URLCard req={req} />;
  return (
    <div className="approval-card elicit" role="dialog" aria-label={`Request from ${req.server}`} data-testid="elicit-form">
      <p><strong>{req.server}</strong> asks: <Visible text={req.message} /></p>
      <SchemaForm
        schema={req.schema ?? { type: 'object' }}
        label={`Answer to ${req.server}`}
        onSubmit={(data) => void answerElicit(req.id, 'accept', data)}
      >
        <div className="row">
          <button type="submit" className="primary">Send</button>
          <button type="button" onClick={() => void answerElicit(req.id, 'decline')}>Decline</button>
          <button type="button" onClick={() => void answerElicit(req.id, 'cancel')}>Cancel</button>
        </div>
      </SchemaForm>
    </div>
  );
}

/**
 * URLCard is a server's request to open a page (URL-mode elicitation): the
 * domain and the full address are shown as text — never a link, so nothing
 * is fetched — and the system browser opens it only on Open. For a tool call
 * that waits on the page (-32042, req.retry) the card stays after Open until
 * the server says the user finished (the card is withdrawn) or Done.
 */
/** SiteName shows a link's host with the domain a person registers in bold: login.bank.example.<b>evil.example</b>. */
function SiteName({ host, registrable }: { host: string; registrable: string }) {
  const rest = registrable && host.endsWith(registrable) ? host.slice(0, host.length - registrable.length) : '';
  return (
    <span data-testid="elicit-domain" title={registrable ? `Registered domain: ${registrable}` : undefined}>
      {rest && <span className="muted">{rest}</span>}
      <strong>{rest ? registrable : host}</strong>
    </span>
  );
}

function URLCard({ req }: { req: Elicit }) {
  const [opened, setOpened] = useState(false);
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    first.current?.focus();
  }, []);
  const url = req.url ?? '';
  const web = /^https?:$/.test(externalURL(url)?.protocol ?? '');
  const open = () => {
    openExternal(url);
    if (req.retry) setOpened(true);
    else void answerElicit(req.id, 'accept');
  };
  return (
    <div className="approval-card elicit" role="dialog" aria-label={`Link from ${req.server}`} data-testid="elicit-url">
      <p><strong>{req.server}</strong> asks you to open a page: <Visible text={req.message} /></p>
      <dl className="url-target">
        <dt>Site</dt>
        <dd>
          <SiteName host={req.domain ?? ''} registrable={req.registrable ?? ''} />
          {url.startsWith('http:') && <span className="badge warn">not encrypted</span>}
          {req.written && <p className="small warn" data-testid="elicit-written">Written as <code>{req.written}</code>: letters from another alphabet, which can look like a name you know. The site is the one above.</p>}
        </dd>
        <dt>Full address</dt>
        <dd><code className="url-full" data-testid="elicit-url-full"><Visible text={url} /></code></dd>
      </dl>
      {req.retry && !opened && <p className="small muted">The tool call waits for this page: it runs again when the server confirms you finished, or when you press Done.</p>}
      {opened && <p role="status">Opened in your browser. Waiting for {req.server}… press Done when you have finished there.</p>}
      <div className="row">
        <button type="button" ref={first} className="primary" disabled={!web} onClick={open}>{opened ? 'Open again' : `Open ${req.domain ?? 'page'}`}</button>
        {req.retry && <button type="button" onClick={() => void answerElicit(req.id, 'accept')}>Done</button>}
        <button type="button" onClick={() => void answerElicit(req.id, 'decline')}>Decline</button>
        <button type="button" onClick={() => void answerElicit(req.id, 'cancel')}>Cancel</button>
      </div>
    </div>
  );
}
