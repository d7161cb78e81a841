import { useCallback, useEffect, useState } from 'react';
import { call, ServerSkills as listSkills, SetSkillOn, type host } from '../../backend';
import { type ServerView } from '../../servers';
import { message } from '../../errors';
import './ServerSkills.css';

/** sizeText is a skill's size for people: "350 B in 2 files". */
export function sizeText(s: Pick<host.Skill, 'size' | 'files' | 'dynamic'>): string {
  if (s.dynamic) return 'files listed on demand';
  const b = s.size < 1024 ? `${s.size} B` : s.size < 1 << 20 ? `${(s.size / 1024).toFixed(1)} KB` : `${(s.size / (1 << 20)).toFixed(1)} MB`;
  return `${b} in ${s.files} ${s.files === 1 ? 'file' : 'files'}`;
}

/**
 * ServerSkills lists, in a server's Details, the skills it offers (the
 * skills extension): name, description, size, and a switch that offers it
 * to the chats' models or not. Listing reads none of a skill's files; a
 * model loads one when a task calls for it. A server without the extension
 * shows nothing.
 */
export function ServerSkills({ server: s }: { server: ServerView }) {
  const [list, setList] = useState<host.ServerSkills | null>(null);
  const [err, setErr] = useState('');
  const [busy, setBusy] = useState('');
  const load = useCallback(() => {
    call(() => listSkills(s.name)).then(
      (l) => { setList(l); setErr(''); },
      (x: unknown) => setErr(message(x)),
    );
  }, [s.name]);
  useEffect(() => { if (s.state === 'ready') load(); }, [load, s.state]);
  if (err) return <div className="skills" role="group" aria-label={`Skills of ${s.name}`}><span className="bad" role="alert">Skills: {err}</span></div>;
  if (!list?.offered) return null;
  const toggle = (skill: host.Skill) => {
    setBusy(skill.name);
    call(() => SetSkillOn(s.name, skill.name, !skill.on)).then(
      () => { setBusy(''); load(); },
      (x: unknown) => { setBusy(''); setErr(message(x)); },
    );
  };
  return (
    <div className="skills" role="group" aria-label={`Skills of ${s.name}`}>
      <h4 className="skills-title">Skills</h4>
      <div className="muted small">
        A model loads a skill that is on when a task calls for it (checked against what the server listed); nothing is read before.
      </div>
      {list.skills.length === 0 ? <div className="muted">The server lists no skills.</div> : (
        <ul>
          {list.skills.map((k) => (
            <li key={k.uri} className={`skill-item${k.on ? '' : ' off'}`}>
              <input type="checkbox" role="switch" checked={k.on} disabled={busy !== ''}
                aria-label={`Skill ${k.name} of ${s.name}`} onChange={() => toggle(k)} />
              <div>
                <span className="skill-name">{k.name}</span>
                <span className="muted small skill-size">{sizeText(k)}{k.on ? '' : ' · off'}</span>
              </div>
              <div className="skill-desc">{k.description}</div>
            </li>
          ))}
        </ul>
      )}
      {(list.invalid ?? []).map((why) => <div key={why} className="bad small">Left out: {why}</div>)}
    </div>
  );
}
