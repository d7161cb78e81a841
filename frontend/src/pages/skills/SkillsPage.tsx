import { useCallback, useEffect, useRef, useState } from 'react';
import {
  AcceptSkill, AddSkill, call, ChooseSkillFolder, EventSkillsChanged, hasBackend, hasRuntime, LocalSkills, on, PreviewSkill, RemoveSkill,
  AllServerSkills, SetLocalSkillOn, TrustSkillFolder, type gui, type host,
} from '../../backend';
import { ErrorMessage } from '../../components/ErrorMessage';
import { message } from '../../errors';
import './SkillsPage.css';
import { count } from '../../plural';
import { useReadyServers } from '../../servers';

/** bytes is a size for people. */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1 << 20) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1 << 20)).toFixed(1)} MB`;
}

async function readBase64(file: File): Promise<string> {
  const buf = new Uint8Array(await file.arrayBuffer());
  let s = '';
  for (let i = 0; i < buf.length; i += 0x8000) s += String.fromCharCode(...buf.subarray(i, i + 0x8000));
  return btoa(s);
}

interface Req { path: string; zipName: string; zip: string; replace: boolean }

/** Findings lists what the checks found in a skill's text. */
function Findings({ list }: { list: host.SkillFinding[] | undefined }) {
  if (!list?.length) return null;
  return (
    <ul className="skill-findings" aria-label="What the checks found">
      {list.map((f, i) => <li key={i} className="bad small">⚠ {f.where}: {f.reason} <code>{f.excerpt}</code></li>)}
    </ul>
  );
}

/** AddSkillPanel previews a skill folder or .zip, then adds it. */
function AddSkillPanel({ onAdded }: { onAdded: () => void }) {
  const [path, setPath] = useState('');
  const [req, setReq] = useState<Req | null>(null);
  const [preview, setPreview] = useState<host.SkillPreview | null>(null);
  const [err, setErr] = useState('');
  const [done, setDone] = useState('');
  const show = (r: Req) => {
    setErr(''); setDone(''); setPreview(null);
    call(() => PreviewSkill(r)).then((p) => { setReq(r); setPreview(p); }, (x: unknown) => setErr(message(x)));
  };
  const fromFile = async (f: File) => show({ path: '', zipName: f.name, zip: await readBase64(f), replace: false });
  const add = () => {
    if (!req || !preview) return;
    call(() => AddSkill({ ...req, replace: preview.exists })).then(
      (s) => { setDone(`Added ${s.name}: the chats and serve offer it as ${s.server}/${s.name}.`); setPreview(null); setPath(''); onAdded(); },
      (x: unknown) => setErr(message(x)),
    );
  };
  return (
    <section className="skills-add" aria-label="Add a skill"
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => { e.preventDefault(); const f = e.dataTransfer.files[0]; if (f) void fromFile(f); }}>
      <h3>Add a skill</h3>
      <p className="muted small">Drop a skill’s .zip here, choose its folder, or type the path of a folder (with a SKILL.md) or a .zip. You see what it holds before it is copied into Switchboard’s skills folder.</p>
      <div className="skills-add-row">
        <input aria-label="Skill folder or .zip path" value={path} placeholder="~/Downloads/pdf-forms" onChange={(e) => setPath(e.target.value)}
          onKeyDown={(e) => { if (e.key === 'Enter' && path.trim()) show({ path: path.trim(), zipName: '', zip: '', replace: false }); }} />
        <button type="button" disabled={!path.trim()} onClick={() => show({ path: path.trim(), zipName: '', zip: '', replace: false })}>Preview</button>
        <button type="button" onClick={() => call(() => ChooseSkillFolder()).then((d) => { if (d) { setPath(d); show({ path: d, zipName: '', zip: '', replace: false }); } }, (x: unknown) => setErr(message(x)))}>Choose folder…</button>
        <label className="button-like">Choose .zip…
          <input type="file" accept=".zip" aria-label="Choose a skill .zip" hidden onChange={(e) => { const f = e.target.files?.[0]; if (f) void fromFile(f); e.target.value = ''; }} />
        </label>
      </div>
      {err && <div className="bad" role="alert">{err}</div>}
      {done && <div className="ok" role="status">{done}</div>}
      {preview && (
        <div className="skill-preview" role="region" aria-label={`Preview of ${preview.name}`}>
          <div><strong>{preview.name}</strong> — {preview.description}</div>
          <div className="muted small">From {preview.from} · {bytes(preview.size)} in {count(preview.files.length, 'file')}</div>
          <ul className="skill-files" aria-label="Files">
            {preview.files.map((f) => <li key={f.path}><code>{f.path}</code> <span className="muted small">{bytes(f.size)}</span></li>)}
          </ul>
          {(preview.leftOut ?? []).map((l) => <div key={l} className="muted small">Left out: {l}</div>)}
          {(preview.warnings ?? []).map((w) => <div key={w} className="muted small">Note: {w}</div>)}
          {preview.findings?.length ? <Findings list={preview.findings} /> : <div className="ok small">Checks: nothing that looks like hidden instructions.</div>}
          {preview.exists && <div className="bad small">Switchboard’s skills folder already has a skill named {preview.name}: adding replaces it.</div>}
          <div className="skills-add-row">
            <button type="button" className="primary" onClick={add}>{preview.findings?.length ? 'Add anyway' : 'Add skill'}</button>
            <button type="button" onClick={() => setPreview(null)}>Cancel</button>
          </div>
        </div>
      )}
    </section>
  );
}

/** LocalSkillRow is one skill on this computer. */
function LocalSkillRow({ s, reload, fail }: { s: host.LocalSkill; reload: () => void; fail: (e: string) => void }) {
  const act = (f: () => Promise<unknown>) => call(f).then(reload, (x: unknown) => fail(message(x)));
  const held = s.state === 'held';
  return (
    <li className={`local-skill${s.on && !held ? '' : ' off'}`} aria-label={`${s.server}/${s.name}`}>
      <input type="checkbox" role="switch" checked={s.on} disabled={held} aria-label={`Skill ${s.name} from ${s.server}`}
        onChange={() => act(() => SetLocalSkillOn(s.server, s.name, !s.on))} />
      <div className="local-skill-head">
        <span className="skill-name">{s.name}</span>
        <span className="muted small"> {s.app} · <code>{s.server}</code> · {bytes(s.size)} in {count(s.files.length, 'file')}{held ? '' : s.on ? '' : ' · off'}</span>
      </div>
      <div className="skill-desc">{s.description}</div>
      <div className="muted small skill-folder">{s.folder}{s.alsoIn?.length ? ` (also reached through ${s.alsoIn.join(', ')})` : ''}</div>
      {held && (
        <div className="skill-held" role="group" aria-label={`Review ${s.name}`}>
          <div className="bad">Held: {s.changes?.length ? `${s.changes.join(', ')} since you accepted it` : 'new, and the checks found something'}. The chats and serve do not get it until you accept it.</div>
          <Findings list={s.findings} />
          {s.previous && (
            <details><summary>SKILL.md before and now</summary>
              <div className="skill-diff">
                <div><div className="small muted">Accepted</div><pre aria-label="Accepted SKILL.md">{s.previous}</pre></div>
                <div><div className="small muted">Now</div><pre aria-label="SKILL.md now">{s.current}</pre></div>
              </div>
            </details>
          )}
          <div className="skills-add-row">
            <button type="button" className="primary" onClick={() => act(() => AcceptSkill(s.server, s.name))}>Accept the change</button>
            <button type="button" onClick={() => act(() => TrustSkillFolder(s.source, true))}>Trust this folder</button>
          </div>
        </div>
      )}
      {(s.leftOut ?? []).length > 0 && <div className="muted small">Left out: {s.leftOut!.join('; ')}</div>}
      {(s.warnings ?? []).map((w) => <div key={w} className="muted small">Note: {w}</div>)}
      {s.own && <button type="button" className="link" onClick={() => act(() => RemoveSkill(s.name))}>Remove</button>}
    </li>
  );
}

/**
 * SkillFolders lists the folders the skills are looked for in, whether
 * each is there, and which are trusted; open when no skill was found.
 */
function SkillFolders({ folders, open }: { folders: host.SkillFolder[]; open: boolean }) {
  const there = folders.filter((f) => f.exists).length;
  return (
    <details className="skill-folders" open={open}>
      <summary className="small">Looked in {count(folders.length, 'folder')} ({there} there)</summary>
      <ul className="small">
        {folders.map((f) => (
          <li key={f.dir} className={f.exists ? '' : 'muted'}>
            <code>{f.dir}</code> — {folderOwner(f)}{f.exists ? '' : ' · not there'}{f.trusted ? ' · trusted' : ''}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** folderOwner names a skills folder's app and, unless the app's name already says it, its scope ("Claude Code (personal)"). */
function folderOwner(f: host.SkillFolder): string {
  const says = f.app.includes('(') || !f.scope || f.scope.toLowerCase() === f.app.toLowerCase();
  return says ? f.app : `${f.app} (${f.scope})`;
}

/**
 * SkillsPage lists the skills on this computer (the SKILL.md folders of
 * Claude Code, Codex, Copilot, projects, plugins and Switchboard's own) and
 * the servers' skills, adds one from a folder or .zip after a preview, and
 * holds a changed one for review.
 */
export function SkillsPage() {
  const [local, setLocal] = useState<host.LocalSkillList | null>(null);
  const [servers, setServers] = useState<gui.ServerSkillList>({ skills: [], errors: [] });
  const [err, setErr] = useState('');
  // Only the last ask's answer is shown: an earlier one (before a server
  // was ready) can come back after it.
  const asked = useRef(0);
  const loadServers = useCallback(() => {
    if (!hasBackend()) return;
    const n = ++asked.current;
    call(() => AllServerSkills()).then((l) => { if (n === asked.current) setServers(l); }, (x: unknown) => { if (n === asked.current) setErr(message(x)); });
  }, []);
  const loadLocal = useCallback(() => {
    if (hasBackend()) call(() => LocalSkills()).then((l) => { setLocal(l); setErr(''); }, (x: unknown) => setErr(message(x)));
  }, []);
  const load = useCallback(() => { loadLocal(); loadServers(); }, [loadLocal, loadServers]);
  useEffect(() => {
    loadLocal();
    return hasRuntime() ? on(EventSkillsChanged, load) : undefined;
  }, [load, loadLocal]);
  // The servers' skills are asked for at the start and again whenever the
  // set of ready servers changes: a server added, started, restarted or
  // stopped while the page is open shows its skills, or loses them, without
  // leaving the page.
  const ready = useReadyServers();
  useEffect(() => { loadServers(); }, [ready, loadServers]);
  return (
    <section className="page skills-page" aria-labelledby="page-title">
      <div className="page-head"><h1 id="page-title">Skills</h1></div>
      <p className="muted">Skills are instructions and scripts for a kind of task: the SKILL.md folders of Claude Code, Codex, Copilot, your projects and plugins, and the servers&apos; skills. A model loads one when a task calls for it; nothing is read before. A skill that changes on disk is held until you review it.</p>
      {err && <div className="bad" role="alert">{err}</div>}
      <AddSkillPanel onAdded={load} />
      <section aria-label="Skills on this computer">
        <h3>On this computer</h3>
        {local && local.skills.length === 0 && <div className="muted">No skills found. Add one above, or put a skill&apos;s folder (with its SKILL.md) in one of the folders below.</div>}
        <ul className="local-skills">
          {local?.skills.map((s) => <LocalSkillRow key={`${s.server}/${s.name}`} s={s} reload={load} fail={setErr} />)}
        </ul>
        {(local?.malformed ?? []).map((m) => <div key={m.folder} className="bad small" role="note">Left out {m.folder}: {m.reason}</div>)}
        {local && <SkillFolders folders={local.folders} open={local.skills.length === 0} />}
      </section>
      <section aria-label="Skills from servers">
        <h3>From servers</h3>
        {servers.errors.map((e) => <ErrorMessage key={e.server} error={e.error} role="status" className="alert alert-soft" label={`Skills of ${e.server}`} />)}
        {servers.skills.length === 0 && servers.errors.length === 0 && <div className="muted">No running server offers skills.</div>}
        {servers.skills.length > 0 && (
          <ul className="local-skills">
            {servers.skills.map((s) => (
              <li key={`${s.server}/${s.uri}`} className={`local-skill${s.on ? '' : ' off'}`} aria-label={`${s.server}/${s.name}`}>
                <span />
                <div className="local-skill-head"><span className="skill-name">{s.name}</span><span className="muted small"> server <code>{s.server}</code> · {bytes(s.size)} in {count(s.files, 'file')}{s.on ? '' : ' · off'}</span></div>
                <div className="skill-desc">{s.description}</div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </section>
  );
}
