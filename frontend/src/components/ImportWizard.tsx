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
        {discovered.map((d) => (
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
            {d.app}{d.scope === 'project' ? ' (project)' : ''} · <span className={d.problem || d.needsAttention ? 'warn' : 'muted'}>{d.summary}</span>
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
      {items.length > 0 && (
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
      {(preview?.inputs ?? []).map((i) => (
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
      {items.length > 0 && (
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
