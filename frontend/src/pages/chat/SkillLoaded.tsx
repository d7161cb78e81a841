import type { ToolCall } from '../../chat';
import './SkillLoaded.css';

/** LOAD_SKILL is the host tool a model loads a server's skill with (app/chat/skills.go). */
export const LOAD_SKILL = 'load_skill';

interface SkillResult { skill: string; server: string; file: string; size: number }

/**
 * skillOf is which skill (and file) a load_skill call loaded, or asked for;
 * query is what it looked for instead, when the model had too many skills
 * to see them described (app/chat/skills.go, SkillShare).
 */
export function skillOf(call: Pick<ToolCall, 'args' | 'result'>): { skill: string; server?: string; file?: string; query?: string } {
  try {
    const r = JSON.parse(call.result?.structured || 'null') as SkillResult | null;
    if (r?.skill) return { skill: r.skill, server: r.server, file: r.file };
  } catch { /* not a skill result */ }
  try {
    const a = JSON.parse(call.args || '{}') as { name?: string; file?: string; query?: string };
    return { skill: a.name ?? '', file: a.file, query: a.name ? undefined : a.query };
  } catch {
    return { skill: '' };
  }
}

/**
 * SkillLoaded is the line a load_skill card shows under its head: which
 * skill of which server was loaded (or which of its files was read), or
 * that it was refused.
 */
export function SkillLoaded({ call }: { call: ToolCall }) {
  if (call.name !== LOAD_SKILL) return null;
  const { skill, server, file, query } = skillOf(call);
  if (query) {
    const done = call.status === 'done' ? <>Looked for skills that fit “{query}”</> : <>Looking for skills that fit “{query}”…</>;
    return <div className="skill-loaded small" data-testid="skill-loaded">{done}</div>;
  }
  const what = file && file !== 'SKILL.md' ? <>Read <code>{file}</code> of skill <strong>{skill}</strong></> : <>Skill <strong>{skill}</strong></>;
  const from = server ? <> from <strong>{server}</strong></> : null;
  let text;
  switch (call.status) {
    case 'done':
      text = file && file !== 'SKILL.md' ? <>{what}{from}</> : <>Loaded skill <strong>{skill}</strong>{from}</>;
      break;
    case 'error':
      text = <>{what} was not loaded: {firstLine(call.error)}</>;
      break;
    default:
      text = <>Loading skill <strong>{skill}</strong>…</>;
  }
  return <div className={`skill-loaded small${call.status === 'error' ? ' bad' : ''}`} data-testid="skill-loaded">{text}</div>;
}

function firstLine(s: string | undefined): string {
  const t = (s ?? '').replace(/^The tool call failed: /, '').replace(/ \(the skill is not loaded: .*\)$/, '');
  return t.split('\n')[0] ?? '';
}
