import { useEffect, useState } from 'react';
import { call, ServerProfiles, SetServerProfile } from '../../backend';
import type { host } from '../../backend';
import { profilesChanged, refreshServers, type ServerView } from '../../servers';
import { message } from '../../errors';

interface Draft { url: string; args: string; env: string }

const toDraft = (o: host.ProfileOverride): Draft => ({
  url: o.url ?? '',
  args: (o.args ?? []).join('\n'),
  env: Object.entries(o.env ?? {}).map(([k, v]) => `${k}=${v}`).join('\n'),
});

/** fromDraft parses the form: one argument per line, KEY=VALUE per line (an empty value removes the variable). */
export function fromDraft(d: Draft): host.ProfileOverride {
  const args = d.args.split('\n').map((a) => a.trim()).filter(Boolean);
  const env: Record<string, string> = {};
  for (const line of d.env.split('\n')) {
    const i = line.indexOf('=');
    if (i > 0) env[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return { url: d.url.trim() || undefined, args: args.length ? args : undefined, env: Object.keys(env).length ? env : undefined };
}

/** ProfileOverrides edits a server's per-profile overrides (work, home, ...). */
export function ProfileOverrides({ server: s }: { server: ServerView }) {
  const remote = s.transport === 'http' || s.transport === 'sse';
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  const [name, setName] = useState('');
  const [err, setErr] = useState('');
  const [saved, setSaved] = useState('');
  useEffect(() => {
    call(() => ServerProfiles(s.name)).then(
      (ps) => setDrafts(Object.fromEntries(Object.entries(ps ?? {}).map(([k, o]) => [k, toDraft(o)]))),
      (e: unknown) => setErr(message(e)),
    );
  }, [s.name]);
  const save = async (profile: string) => {
    setErr('');
    setSaved('');
    try {
      await call(() => SetServerProfile(s.name, profile, fromDraft(drafts[profile]!)));
      setSaved(profile);
      profilesChanged();
      await refreshServers();
    } catch (e) {
      setErr(message(e));
    }
  };
  const edit = (p: string, patch: Partial<Draft>) => setDrafts({ ...drafts, [p]: { ...drafts[p]!, ...patch } });
  return (
    <fieldset className="profiles" aria-label={`Profiles of ${s.name}`}>
      <legend>Profiles</legend>
      {Object.keys(drafts).length === 0 ? (
        <p className="small muted">A profile (work, home…) changes a server&apos;s arguments, URL or environment while it is active. To create one, type its name below and press Add profile; the Profile menu at the top of the Servers page then switches every server at once.</p>
      ) : (
        <p className="small muted">What changes when a profile is active (the Profile menu at the top of the Servers page switches every server at once).</p>
      )}
      {Object.entries(drafts).map(([p, d]) => (
        <div key={p} className="profile-edit" aria-label={`Profile ${p}`} role="group">
          <strong>{p}</strong>
          {remote ? (
            <label>URL <input value={d.url} placeholder="https://…" onChange={(e) => edit(p, { url: e.target.value })} /></label>
          ) : (
            <label>Arguments (one per line; replaces them) <textarea rows={2} value={d.args} onChange={(e) => edit(p, { args: e.target.value })} /></label>
          )}
          <label>Environment (KEY=VALUE per line) <textarea rows={2} value={d.env} onChange={(e) => edit(p, { env: e.target.value })} /></label>
          <div className="row">
            <button type="button" onClick={() => void save(p)}>Save {p}</button>
            {saved === p && <span className="small muted" role="status">Saved</span>}
          </div>
        </div>
      ))}
      <div className="row">
        <input aria-label="New profile name" placeholder="work" value={name} onChange={(e) => setName(e.target.value)} />
        <button type="button" disabled={!name.trim() || name.trim() in drafts} onClick={() => { setDrafts({ ...drafts, [name.trim()]: { url: '', args: '', env: '' } }); setName(''); }}>Add profile</button>
      </div>
      {err && <div className="alert" role="alert">{err}</div>}
    </fieldset>
  );
}
