import { useEffect, useRef } from 'react';
import { answerApproval, prettyJSON, type Approval } from '../chat';

/** ApprovalCard asks the user before a tool runs (or a server uses the model), showing the exact arguments. */
export function ApprovalCard({ req }: { req: Approval }) {
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    first.current?.focus();
  }, []);
  const what = req.kind === 'sampling'
    ? <>Server <strong>{req.server}</strong> asks to use the model with this request:</>
    : <>The model wants to run <code>{req.tool}</code>{req.destructive && <span className="badge warn">may change things</span>}</>;
  return (
    <div className="approval-card" role="alertdialog" aria-label={`Approve ${req.tool || 'sampling request'}`} data-testid="approval-card">
      <p>{what}</p>
      <pre className="args">{prettyJSON(req.arguments)}</pre>
      <div className="row">
        <button type="button" ref={first} className="primary" onClick={() => void answerApproval(req.id, 'once')}>Allow once</button>
        {req.kind === 'tool' && <button type="button" onClick={() => void answerApproval(req.id, 'always')}>Allow for this chat</button>}
        <button type="button" className="danger" onClick={() => void answerApproval(req.id, 'deny')}>Deny</button>
      </div>
    </div>
  );
}
