import { useRef, useState } from 'react';
import { answerApproval, chatState, prettyJSON, stop, type Approval } from '../chat';
import { useDismiss } from '../dismiss';
import { proposeRule, type RuleView } from '../safety';
import { RuleEditor } from './RuleEditor';
import { Visible } from './Visible';
import { WarningBadge, WarningList } from './ToolSafety';

/**
 * ApprovalCard asks the user before a tool runs (or a server uses the model), showing the exact
 * arguments: what a model or a server wrote is shown through Visible, so a bidi control or a
 * zero-width space is written out (\u2067) rather than making the text read as something else.
 */
export function ApprovalCard({ req }: { req: Approval }) {
  const card = useRef<HTMLDivElement>(null);
  const [rule, setRule] = useState<RuleView | null>(null);
  // Focus comes to the card itself, not to Allow once: a card appears while
  // the user may still be typing, and their next Enter must not approve a
  // call they have not read. Tab reaches the buttons. Esc stops the chat's
  // answer (as in the composer: "Esc stops"), or denies a request no running
  // answer made, and focus goes back where it was (the message box).
  useDismiss(true, () => {
    if (req.chatId && chatState().running[req.chatId]) void stop();
    else void answerApproval(req.id, 'deny');
  }, { panel: card, initial: card });
  const what = req.kind === 'sampling'
    ? req.app
      ? <>The app of <strong>{req.server}</strong> (<code>{req.app}</code>) asks to use the model with this request:</>
      : <>Server <strong>{req.server}</strong> asks to use the model with this request:</>
    : req.specialist
      ? <>The <strong>{req.specialist}</strong> specialist (asked by the model) wants to run <code>{req.tool}</code>{req.destructive && <span className="badge warn">may change things</span>}</>
    : req.script
      ? <>The model's script wants to run <code>{req.tool}</code>{req.destructive && <span className="badge warn">may change things</span>}</>
      : <>The model wants to run <code>{req.tool}</code>{req.destructive && <span className="badge warn">may change things</span>}</>;
  return (
    <div className="approval-card" ref={card} tabIndex={-1} role="alertdialog" aria-label={`Approve ${req.tool || 'sampling request'}`} data-testid="approval-card" aria-describedby={`${req.id}-esc`}>
      <p>{what}</p>
      {req.warnings?.length > 0 && <p><WarningBadge warnings={req.warnings} what="this tool's description may hide instructions" /></p>}
      <WarningList warnings={req.warnings ?? []} label={`Warnings of ${req.tool}`} />
      {req.kind === 'sampling' && (req.tools?.length ?? 0) > 0 && (
        <div className="offered-tools">
          <p>It offers the model {req.tools!.length === 1 ? 'this tool' : `these ${req.tools!.length} tools`}; the model's calls go back to the server, which runs them:</p>
          <ul aria-label="Tools offered to the model">
            {req.tools!.map((t) => <li key={t.name}><code><Visible text={t.name} /></code>{t.description && <> — <Visible text={t.description} /></>}</li>)}
          </ul>
        </div>
      )}
      {req.script && (
        <details className="approval-script">
          <summary className="small muted">The script</summary>
          <pre className="args" aria-label="The script"><Visible text={req.script} /></pre>
        </details>
      )}
      <pre className="args" aria-label="Arguments"><Visible text={prettyJSON(req.arguments)} /></pre>
      <div className="row">
        <button type="button" className="primary" onClick={() => void answerApproval(req.id, 'once')}>Allow once</button>
        {req.kind === 'tool' && <button type="button" onClick={() => void answerApproval(req.id, 'always')}>Allow for this chat</button>}
        {req.kind === 'tool' && <button type="button" onClick={() => void proposeRule(req.tool, req.arguments).then(setRule)} disabled={rule !== null}>Always allow calls like this…</button>}
        <button type="button" className="danger" onClick={() => void answerApproval(req.id, 'deny')}>Deny</button>
      </div>
      <p className="small muted" id={`${req.id}-esc`}>Tab to choose; Esc {req.chatId ? 'stops the answer' : 'denies it'}.</p>
      {rule && <RuleEditor initial={rule} onCancel={() => setRule(null)} onSaved={() => void answerApproval(req.id, 'once')} />}
    </div>
  );
}
