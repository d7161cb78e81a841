import { Fragment, useState } from 'react';
import { addRule, type MatchView, type RuleView } from '../safety';
import { message } from '../errors';
import { Icon } from './Icon';
import { Visible } from './Visible';
import { writesOut } from '../visible';

type Row = { path: string; kind: 'glob' | 'regex'; pattern: string };

const rowOf = (m: MatchView): Row => (m.regex ? { path: m.path, kind: 'regex', pattern: m.regex } : { path: m.path, kind: 'glob', pattern: m.glob });

/**
 * RuleEditor edits an approval rule before it is saved: allow or deny, the
 * tool, and conditions on the arguments (a JSON path and a glob or regular
 * expression). A bad pattern is refused with the field named. A pattern
 * taken from a call's arguments may hold characters an input shows as
 * nothing or reordered: it is shown again below, written out (Visible).
 */
export function RuleEditor({ initial, onSaved, onCancel }: { initial: RuleView; onSaved: (r: RuleView) => void; onCancel: () => void }) {
  const [effect, setEffect] = useState(initial.effect || 'allow');
  const [tool, setTool] = useState(initial.tool);
  const [rows, setRows] = useState<Row[]>(initial.match.length ? initial.match.map(rowOf) : [{ path: '', kind: 'glob', pattern: '' }]);
  const [err, setErr] = useState('');
  const [busy, setBusy] = useState(false);
  const change = (i: number, patch: Partial<Row>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const save = async () => {
    setBusy(true);
    setErr('');
    try {
      const match = rows.map((r) => ({ path: r.path, glob: r.kind === 'glob' ? r.pattern : '', regex: r.kind === 'regex' ? r.pattern : '' }));
      onSaved(await addRule({ id: '', tool, effect, match, text: '' }));
    } catch (e) {
      setErr(message(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="rule-editor" aria-label="Approval rule" onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <div className="row">
        <label>
          <span className="sr-only">Effect</span>
          <select aria-label="Effect" value={effect} onChange={(e) => setEffect(e.target.value)}>
            <option value="allow">Allow</option>
            <option value="deny">Deny</option>
          </select>
        </label>
        <label>
          calls of <input aria-label="Tool" value={tool} onChange={(e) => setTool(e.target.value)} size={32} />
        </label>
        <span>when</span>
      </div>
      {rows.map((r, i) => (
        <Fragment key={i}>
          <div className="row rule-row">
            <input aria-label={`Argument path ${i + 1}`} placeholder="command" value={r.path} onChange={(e) => change(i, { path: e.target.value })} size={16} />
            <select aria-label={`Pattern kind ${i + 1}`} value={r.kind} onChange={(e) => change(i, { kind: e.target.value as Row['kind'] })}>
              <option value="glob">matches glob</option>
              <option value="regex">matches regex</option>
            </select>
            <input aria-label={`Pattern ${i + 1}`} placeholder="git status*" value={r.pattern} onChange={(e) => change(i, { pattern: e.target.value })} size={32} />
            <button type="button" aria-label={`Remove condition ${i + 1}`} onClick={() => setRows(rows.filter((_, j) => j !== i))} disabled={rows.length === 1} className="icon-button"><Icon name="close" size={14} /></button>
          </div>
          {writesOut(r.pattern) && <p className="small warn" aria-label={`Pattern ${i + 1} written out`}>It holds characters that do not show as themselves: <code><Visible text={r.pattern} /></code></p>}
        </Fragment>
      ))}
      <p className="muted small">In a glob, * is any text and ? one character; the whole value must match. A deny rule always wins.</p>
      {err && <div className="alert" role="alert">{err}</div>}
      <div className="row">
        <button type="button" onClick={() => setRows([...rows, { path: '', kind: 'glob', pattern: '' }])}>Add condition</button>
        <button type="submit" className="primary" disabled={busy}>Save rule</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}
