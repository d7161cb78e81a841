import { useEffect, useState } from 'react';
import { call, ChatSettings, hasBackend, SetToolPolicy } from '../../backend';
import { message } from '../../errors';

/** ToolPolicy chooses whether the model may run a tool without asking: the default (read-only tools and writes in a fresh workspace run, others ask), ask, allow or deny. */
export function ToolPolicy({ name, defaultPolicy }: { name: string; defaultPolicy: string }) {
  const [policy, setPolicy] = useState('');
  const [err, setErr] = useState('');
  useEffect(() => {
    if (!hasBackend()) return;
    call(ChatSettings).then((s) => setPolicy(s.policies?.[name] ?? ''), (e: unknown) => setErr(message(e)));
  }, [name]);
  const change = (p: string) => {
    setPolicy(p);
    call(() => SetToolPolicy(name, p)).catch((e: unknown) => setErr(message(e)));
  };
  return (
    <label className="tool-policy">
      When the model calls it{' '}
      <select value={policy} onChange={(e) => change(e.target.value)}>
        <option value="">default ({defaultPolicy === 'allow' ? 'run it' : 'ask me'})</option>
        <option value="ask">ask me</option>
        <option value="allow">run it</option>
        <option value="deny">never offer it</option>
      </select>
      {err && <span className="bad small" role="alert"> {err}</span>}
    </label>
  );
}
