import { useEffect, useState } from 'react';
import { findAgentFiles, importAgentFiles, type AgentFile } from '../../agents';
import { message } from '../../errors';
import { count } from '../../plural';

/** importable says whether an import would add f's agent. */
export function importable(f: AgentFile): boolean {
  return !f.problem && !f.exists;
}

/** outcome is what an import did (or would do) with f, in words. */
export function outcome(f: AgentFile, done: boolean): string {
  if (f.problem) return `Skipped: ${f.problem}`;
  if (f.exists) return 'Skipped: an agent of this name exists (rename or delete it first).';
  if (!done) return '';
  return f.imported ? 'Imported.' : 'Not imported.';
}

/**
 * AgentImport lists Claude Code's agent files (~/.claude/agents and the
 * workspace folder's .claude/agents) as an import makes them — the agent,
 * what does not carry over, why a file cannot be imported — and imports the
 * ones ticked. An agent whose name is taken is never replaced.
 */
export function AgentImport({ onDone }: { onDone: () => void }) {
  const [files, setFiles] = useState<AgentFile[] | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState('');
  useEffect(() => {
    findAgentFiles().then((fs) => {
      setFiles(fs);
      setChosen(fs.filter(importable).map((f) => f.path));
    }, (e: unknown) => { setErr(message(e)); setFiles([]); });
  }, []);
  const run = async () => {
    setBusy(true);
    setErr('');
    try {
      setFiles(await importAgentFiles(chosen));
      setDone(true);
    } catch (e) {
      setErr(message(e));
    } finally {
      setBusy(false);
    }
  };
  const imported = (files ?? []).filter((f) => f.imported).length;
  return (
    <section className="card agent-import" aria-label="Import agents" onKeyDown={(e) => { if (e.key === 'Escape') onDone(); }}>
      <h2 className="small">Import Claude Code's agents</h2>
      <p className="muted small">
        Each agent file (<code>~/.claude/agents/*.md</code>, and <code>.claude/agents</code> in the workspace folder) becomes an agent: its
        description, its prompt, and its tools — an MCP server's as that server here, Read, Write, Edit, Grep, Glob and Bash as the
        workspace's. What has no match is said under it. <code>switchboard agents import PATH</code> imports other folders.
      </p>
      {files === null && <p className="muted small" role="status">Looking for agent files…</p>}
      {files?.length === 0 && !err && <p className="placeholder small">No Claude Code agents found in ~/.claude/agents or the workspace folder's .claude/agents.</p>}
      {files && files.length > 0 && (
        <ul className="agent-files" aria-label="Agent files">
          {files.map((f) => {
            const why = outcome(f, done);
            return (
              <li key={f.path} aria-label={f.agent.name || f.path} className={importable(f) ? '' : 'muted'}>
                <label className="check">
                  <input type="checkbox" disabled={done || !importable(f)} checked={chosen.includes(f.path)}
                    onChange={(e) => setChosen((c) => (e.target.checked ? [...c, f.path] : c.filter((p) => p !== f.path)))} />
                  <strong className="agent-name">{f.agent.name || '(no name)'}</strong>
                  <span className="muted small">{f.source}</span>
                </label>
                <div className="small muted agent-file-path" title={f.path}>{f.path}</div>
                {f.agent.description && <p className="small agent-description">{f.agent.description}</p>}
                {importable(f) && (
                  <div className="tags" aria-label={`Servers of ${f.agent.name}`}>
                    {f.agent.servers.length === 0 ? <span className="muted small">no tools</span>
                      : f.agent.servers.map((s) => <span key={s} className={(f.agent.missing ?? []).includes(s) ? 'tag missing' : 'tag'}>{s}{(f.agent.missing ?? []).includes(s) ? ' (not set up)' : ''}</span>)}
                  </div>
                )}
                {f.notes.length > 0 && (
                  <ul className="small agent-notes" aria-label={`Notes on ${f.agent.name}`}>
                    {f.notes.map((n) => <li key={n}>{n}</li>)}
                  </ul>
                )}
                {why && <p className={`small ${f.imported ? '' : 'bad'}`} role="status">{why}</p>}
              </li>
            );
          })}
        </ul>
      )}
      {err && <div className="alert" role="alert">{err}</div>}
      <div className="row">
        {!done && files && files.length > 0 && (
          <button type="button" className="primary" disabled={busy || chosen.length === 0} onClick={() => void run()}>
            Import {count(chosen.length, 'agent')}
          </button>
        )}
        {done && <span className="small" role="status">Imported {count(imported, 'agent')}.</span>}
        <button type="button" onClick={onDone}>{done ? 'Close' : 'Cancel'}</button>
      </div>
    </section>
  );
}
