import { useEffect, useRef, useState, type RefObject } from 'react';
import { useDismiss } from '../dismiss';
import { ApplyImport, DiscoverConfigs, PreviewImport, ReadConfigFile } from '../backend';
import type { gui } from '../backend';
import { refreshServers } from '../servers';
import { message } from '../errors';
import { Icon } from './Icon';

type Preview = gui.ImportPreview;
type Problem = gui.ProblemView;

const OUTCOME_TEXT: Record<string, string> = {
  added: 'new',
  changed: 'changed',
  unchanged: 'unchanged',
  conflicting: 'name in use',
  invalid: 'invalid',
};

/**
 * configFiles names the file of each config found on this machine by the
 * last parts of its path that tell it apart from the others of the same
 * app and scope (VS Code keeps servers in User/mcp.json and in
 * User/settings.json): at least its file name, more folders only where
 * two would read the same.
 */
export function configFiles(found: Pick<gui.DiscoveredConfig, 'app' | 'scope' | 'path'>[]): string[] {
  const parts = found.map((d) => d.path.split(/[\\/]/).filter(Boolean));
  const depth = found.map(() => 1);
  const file = (i: number) => (parts[i] ?? []).slice(-(depth[i] ?? 1)).join('/');
  for (let grew = true; grew;) {
    grew = false;
    const keys = found.map((d, i) => `${d.app}\u0000${d.scope}\u0000${file(i)}`);
    keys.forEach((k, i) => {
      const d = depth[i] ?? 1;
      if (keys.some((o, j) => j !== i && o === k) && d < (parts[i]?.length ?? 0)) {
        depth[i] = d + 1;
        grew = true;
      }
    });
  }
  return found.map((_, i) => file(i));
}

/** outcomeAfter says what became of a server of the preview once Import ran with the action chosen for it. */
export function outcomeAfter(it: Pick<gui.ImportItemView, 'name' | 'outcome' | 'renameTo'>, action: string): { name: string; what: string; ok: boolean } {
  if (it.outcome === 'invalid') return { name: it.name, what: 'not imported: it has problems (listed above)', ok: false };
  if (it.outcome === 'unchanged') return { name: it.name, what: 'already there, unchanged', ok: false };
  if (action === 'keep') return { name: it.name, what: it.outcome === 'added' ? 'skipped' : 'not imported: the existing one is kept', ok: false };
  if (action === 'rename' && it.renameTo) return { name: it.name, what: `imported as ${it.renameTo}`, ok: true };
  return { name: it.name, what: it.outcome === 'added' ? 'imported' : 'imported, replacing the existing one', ok: true };
}

/**
 * ImportWizard: paste JSON, pick a file or a discovered config; see per
 * server what would happen (nothing changes yet); choose keep / replace /
 * rename for names in use; fill VS Code inputs; import.
 */
export function ImportWizard({ onClose, initialPath, onImported, opener, onServersPage = false }: {
  /** onServersPage: the import is on the Servers page, where the new servers show below it (else the text says where they are). */
  onServersPage?: boolean;
  onClose: () => void;
  /** opener is the button that opens it: focus returns there when it closes (it can open from a shortcut too). */
  opener?: RefObject<HTMLElement | null>;
  /** initialPath is a discovered config to load at once (the welcome page's one-click import). */
  initialPath?: string;
  /** onImported is told how many servers were imported. */
  onImported?: (n: number) => void;
}) {
  const [name, setName] = useState('pasted config');
  const [text, setText] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [choices, setChoices] = useState<Record<string, string>>({});
  const [inputs, setInputs] = useState<Record<string, string>>({});
  const [plaintext, setPlaintext] = useState<string[]>([]);
  const [sandbox, setSandbox] = useState(false);
  const [discovered, setDiscovered] = useState<gui.DiscoveredConfig[]>([]);
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState('');
  const [done, setDone] = useState('');
  // What became of each server once imported: the preview's "new" and its
  // add/skip choices no longer hold, so this list replaces it.
  const [result, setResult] = useState<{ name: string; what: string; ok: boolean }[]>([]);
  const editor = useRef<HTMLTextAreaElement>(null);
  const panel = useRef<HTMLElement>(null);
  // Focus goes to the config box (paste there); Esc closes the import.
  useDismiss(true, onClose, { panel, opener, initial: editor });

  useEffect(() => {
    DiscoverConfigs().then(setDiscovered, () => setDiscovered([]));
  }, []);

  useEffect(() => {
    if (!initialPath) return;
    ReadConfigFile(initialPath).then(
      (t) => {
        setName(initialPath);
        setText(t);
      },
      (e: unknown) => setErr(message(e)),
    );
  }, [initialPath]);

  // Re-validate while typing, so problems show at their line as the user fixes them.
  useEffect(() => {
    if (!text.trim()) {
      setPreview(null);
      return;
    }
    const t = setTimeout(() => {
      PreviewImport(name, text, plaintext).then(
        (p) => {
          setPreview(p);
          setErr('');
        },
        (e: unknown) => setErr(message(e)),
      );
    }, 250);
    return () => clearTimeout(t);
  }, [name, text, plaintext]);

  const jumpTo = (p: Problem) => {
    const ta = editor.current;
    if (!ta || p.line <= 0) return;
    const lines = text.split('\n');
    let offset = 0;
    for (let i = 0; i < p.line - 1 && i < lines.length; i++) offset += (lines[i]?.length ?? 0) + 1;
    offset += Math.max(0, p.col - 1);
    ta.focus();
    ta.setSelectionRange(offset, offset + 1);
  };

  const loadFile = async (f: File) => {
    setName(f.name);
    setText(await f.text());
  };

  const where = onServersPage ? ': see them in the list below' : ' on the Servers page';
  const apply = async () => {
    if (!preview) return;
    setBusy(true);
    setErr('');
    try {
      const names = importable.map((it) => (effective(it) === 'rename' && it.renameTo ? it.renameTo : it.name));
      const values = Object.fromEntries((preview.inputs ?? []).map((i) => [i.id, inputValue(i)]));
      const n = await ApplyImport(name, text, choices, values, plaintext, sandbox);
      setResult(items.map((it) => outcomeAfter(it, effective(it))));
      const skipped = items.length - importable.length;
      setDone(n === 0
        ? 'Nothing was imported: every server was skipped or already there.'
        : `Imported ${n} server${n === 1 ? '' : 's'}: ${names.slice(0, n).join(', ')}. ${n === 1 ? 'It is starting' : 'They are starting'}${where}${skipped ? `; ${skipped} not imported (invalid, unchanged or skipped)` : ''}.`);
      onImported?.(n);
      await refreshServers();
    } catch (e) {
      setErr(message(e));
    } finally {
      setBusy(false);
    }
  };

  const items = preview?.items ?? [];
  const allProblems = [...(preview?.problems ?? []), ...items.flatMap((i) => i.problems)];
  const effective = (it: gui.ImportItemView) => choices[it.name] ?? it.default;
  const importable = items.filter((it) => it.outcome !== 'invalid' && it.outcome !== 'unchanged' && effective(it) !== 'keep');
  // An input starts with its default (VS Code's "default"), and a pickString's with its first option.
  const inputValue = (i: gui.InputView) => inputs[i.id] ?? (i.default || (i.options?.[0]?.value ?? ''));
  const missingInputs = (preview?.inputs ?? []).filter((i) => !inputValue(i));
  const files = configFiles(discovered);

  return (
    <section className="wizard" aria-label="Import servers" ref={panel}>
      <div className="wizard-head">
        <h2>Import servers</h2>
        <button type="button" className="icon-button" onClick={onClose} aria-label="Close import"><Icon name="close" /></button>
      </div>
      <p className="muted">
        Paste the config you use in Claude Desktop, Cursor, Windsurf, Claude Code or VS Code (JSON), Codex (config.toml), Goose or Continue (YAML), opencode or Zed, choose the file, or pick one found on this machine. Nothing changes until you press Import.
      </p>
      <div className="wizard-sources">
        <label className="file-pick">
          Choose file…
          <input type="file" accept=".json,.jsonc,.toml,.yaml,.yml,application/json" onChange={(e) => e.target.files?.[0] && void loadFile(e.target.files[0])} />
        </label>
        {discovered.map((d, i) => (
          <button
            key={d.path}
            type="button"
            title={`${d.path} — ${d.summary}`}
            onClick={() => {
              ReadConfigFile(d.path).then(
                (t) => {
                  setName(d.path);
                  setText(t);
                },
                (e: unknown) => setErr(message(e)),
              );
            }}
          >
            {d.app}{d.scope === 'project' ? ' (project)' : ''} · <code>{files[i]}</code> · <span className={d.problem || d.needsAttention ? 'warn' : 'muted'}>{d.summary}</span>
          </button>
        ))}
      </div>
      <label htmlFor="import-json">Config JSON, TOML or YAML</label>
      <textarea
        id="import-json"
        ref={editor}
        rows={12}
        spellCheck={false}
        value={text}
        placeholder={'{\n  "mcpServers": {\n    "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] }\n  }\n}'}
        onChange={(e) => {
          setText(e.target.value);
          setDone('');
          setResult([]);
        }}
        aria-invalid={allProblems.some((p) => p.severity === 'error')}
        aria-describedby="import-problems"
      />
      <ul id="import-problems" className="problems" aria-label="Problems">
        {allProblems.map((p, i) => (
          <li key={i} className={`problem-${p.severity}`}>
            <button type="button" className="link" onClick={() => jumpTo(p)} disabled={p.line <= 0}>
              {p.line > 0 ? `line ${p.line}:${p.col}` : p.severity}
            </button>{' '}
            {p.path && <code>{p.path}</code>} {p.message}
          </li>
        ))}
      </ul>
      {done && result.length > 0 && (
        <ul className="import-result" aria-label="Import result">
          {result.map((r) => (
            <li key={r.name}><code>{r.name}</code>: <span className={r.ok ? 'outcome outcome-added' : 'muted'}>{r.what}</span></li>
          ))}
        </ul>
      )}
      {!done && items.length > 0 && (
        <table className="preview import-preview" aria-label="Import preview">
          <thead>
            <tr><th>Server</th><th>What happens</th><th>Action</th><th>Command / URL</th></tr>
          </thead>
          <tbody>
            {items.map((it) => (
              <tr key={it.name} data-outcome={it.outcome}>
                <td>{it.name}</td>
                <td>
                  <span className={`outcome outcome-${it.outcome}`}>{OUTCOME_TEXT[it.outcome] ?? it.outcome}</span>
                  {it.disabled && it.outcome !== 'invalid' && it.outcome !== 'unchanged' && (
                    <div className="muted small">arrives switched off, as it was there: turn it on on the Servers page</div>
                  )}
                  {it.changes.map((c) => <div key={c} className="muted small">{c}</div>)}
                  {it.secrets.map((m) => m.input ? (
                    <span key={m.name} className="secret-move small">
                      <Icon name="lock" size={14} /> {m.field}: the password you type for {m.input} → keyring
                    </span>
                  ) : (
                    <label key={m.key} className="secret-move small">
                      <input type="checkbox" checked onChange={() => setPlaintext([...plaintext, m.key])} aria-label={`Move ${m.field} of ${it.name} to the keyring`} />
                      <Icon name="lock" size={14} /> {m.field} {m.masked} → keyring
                    </label>
                  ))}
                  {plaintext.filter((k) => k.startsWith(`${it.name}.`)).map((k) => (
                    <label key={k} className="secret-move small warn">
                      <input type="checkbox" checked={false} onChange={() => setPlaintext(plaintext.filter((x) => x !== k))} aria-label={`Move ${k.slice(it.name.length + 1)} of ${it.name} to the keyring`} />
                      {k.slice(it.name.length + 1)} stays in config.json as plain text
                    </label>
                  ))}
                </td>
                <td>
                  {it.outcome === 'invalid' || it.outcome === 'unchanged' ? (
                    <span className="muted">{it.outcome === 'invalid' ? 'skipped' : 'nothing to do'}</span>
                  ) : (
                    <select aria-label={`Action for ${it.name}`} value={effective(it)} onChange={(e) => setChoices({ ...choices, [it.name]: e.target.value })}>
                      {it.outcome === 'added' ? <option value="replace">add</option> : <option value="replace">replace</option>}
                      <option value="keep">{it.outcome === 'added' ? 'skip' : 'keep existing'}</option>
                      {it.renameTo && <option value="rename">add as {it.renameTo}</option>}
                    </select>
                  )}
                </td>
                <td><code className="small">{it.target}</code></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {!done && (preview?.inputs ?? []).map((i) => (
        <label key={i.id} className="input-field">
          {i.description || i.id} <code>{`\${input:${i.id}}`}</code>
          {(i.options ?? []).length > 0 ? (
            <select value={inputValue(i)} onChange={(e) => setInputs({ ...inputs, [i.id]: e.target.value })}>
              {i.options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
            </select>
          ) : (
            <input type={i.password ? 'password' : 'text'} value={inputValue(i)} onChange={(e) => setInputs({ ...inputs, [i.id]: e.target.value })} />
          )}
        </label>
      ))}
      {!done && items.length > 0 && (
        <label className="import-sandbox">
          <input type="checkbox" checked={sandbox} onChange={(e) => setSandbox(e.target.checked)} />
          Run the imported local servers in a sandbox: no access to your home folder, keys or the network (change it per server under Details)
        </label>
      )}
      {err && <div className="alert" role="alert">{err}</div>}
      {done && <div className="notice" role="status">{done}</div>}
      <div className="wizard-actions">
        {done ? (
          // Imported: the way on is to close (the servers start on the
          // Servers page); a second Import would only import nothing.
          <button type="button" className="primary" onClick={onClose}>Close</button>
        ) : (
          <>
            <button type="button" className="primary" onClick={() => void apply()} disabled={busy || importable.length === 0 || missingInputs.length > 0}>
              {busy ? 'Importing…' : `Import ${importable.length} server${importable.length === 1 ? '' : 's'}`}
            </button>
            <button type="button" onClick={onClose}>Cancel</button>
          </>
        )}
      </div>
    </section>
  );
}
