import { useEffect, useState } from 'react';
import { call, ServerSkills, type host } from '../../backend';

/**
 * AgentSkills narrows, in the agent form, which of a server's skills the
 * agent's chats may load ("server/name" in the agent's skills); none
 * chosen means all of them that are on. A server without skills shows
 * nothing.
 */
export function AgentSkills({ server, chosen, onChange }: { server: string; chosen: string[]; onChange: (skills: string[]) => void }) {
  const [skills, setSkills] = useState<host.Skill[]>([]);
  useEffect(() => {
    call(() => ServerSkills(server)).then((l) => setSkills(l.skills), () => setSkills([]));
  }, [server]);
  if (skills.length === 0) return null;
  const key = (name: string) => `${server}/${name}`;
  const own = chosen.filter((k) => k.startsWith(`${server}/`));
  return (
    <details>
      <summary className="small">Only some skills ({own.length || 'all'} chosen)</summary>
      {skills.map((s) => (
        <label key={s.name} className="check small">
          <input type="checkbox" checked={chosen.includes(key(s.name))}
            onChange={(e) => onChange(e.target.checked ? [...chosen, key(s.name)] : chosen.filter((k) => k !== key(s.name)))} />
          {s.name}{s.on ? '' : ' (off on the Servers page)'}
        </label>
      ))}
    </details>
  );
}
