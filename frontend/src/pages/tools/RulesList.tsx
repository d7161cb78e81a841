import { useEffect, useState } from 'react';
import { refreshSafety, removeRule, useRules, type RuleView } from '../../safety';
import { message } from '../../errors';
import { RuleEditor } from '../../components/RuleEditor';

/** RulesList is the Tools page's list of approval rules on arguments: each removable, and a form to add one. */
export function RulesList() {
  const rules = useRules();
  const [adding, setAdding] = useState(false);
  const [err, setErr] = useState('');
  useEffect(() => { void refreshSafety(); }, []);
  const remove = (r: RuleView) => async () => {
    setErr('');
    try {
      await removeRule(r.id);
    } catch (e) {
      setErr(message(e));
    }
  };
  return (
    <section className="rules" aria-labelledby="rules-title">
      <h2 id="rules-title">Approval rules</h2>
      <p className="muted">Allow or deny a tool's calls by their arguments, without asking. A deny rule always wins, even over <code>--yes</code> on the command line. An allow rule never approves a value with a command separator its pattern does not show (<code>;</code> <code>&amp;</code> <code>|</code> <code>`</code> <code>$(</code> <code>&gt;</code> <code>&lt;</code> or a new line): <code>git status*</code> runs <code>git status --short</code>, but <code>git status; rm x</code> is asked about.</p>
      {rules.length === 0 && <p className="muted">No rules yet. Add one here, or press “Always allow calls like this…” on an approval card.</p>}
      <ul aria-label="Approval rules">
        {rules.map((r) => (
          <li key={r.id} className="row" aria-label={r.text}>
            <span className={r.effect === 'deny' ? 'badge badge-error' : 'badge badge-ready'}>{r.effect}</span>
            <code>{r.text}</code>
            <button type="button" onClick={remove(r)} aria-label={`Remove rule: ${r.text}`}>Remove</button>
          </li>
        ))}
      </ul>
      {err && <div className="alert" role="alert">{err}</div>}
      {adding
        ? <RuleEditor initial={{ id: '', tool: '', effect: 'allow', match: [], text: '' }} onSaved={() => setAdding(false)} onCancel={() => setAdding(false)} />
        : <button type="button" onClick={() => setAdding(true)}>Add rule…</button>}
    </section>
  );
}
