import { useEffect, useState } from 'react';
import { AttachResource, call, Prompts, Resources, UsePrompt, UseTemplate } from '../../backend';
import type { gui } from '../../backend';
import { CompletingInput } from './CompletingInput';
import { message } from '../../errors';
import { ServerIcon } from '../../components/Icon';

export type PromptView = gui.PromptView;
export type ResourceView = gui.ResourceView;
export interface Attachment { server: string; uri: string; name: string; text: string }

/** matchPrompts filters prompts for what follows "/" in the composer ("/arg" finds args-prompt). */
export function matchPrompts<P extends { server: string; name: string }>(prompts: P[], text: string): P[] {
  if (!text.startsWith('/') || /\s/.test(text)) return [];
  const q = text.slice(1).toLowerCase();
  return prompts.filter((p) => p.name.toLowerCase().includes(q) || p.server.toLowerCase().includes(q)).slice(0, 8);
}

/** usePrompts loads the servers' prompts once the user starts a slash command. */
export function usePrompts(active: boolean): PromptView[] {
  const [prompts, setPrompts] = useState<PromptView[]>([]);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (!active || loaded) return;
    setLoaded(true);
    call(Prompts).then((p) => setPrompts(p ?? []), () => setPrompts([]));
  }, [active, loaded]);
  return prompts;
}

/** SlashMenu lists the prompts matching the slash command; the parent moves the selection with the arrow keys. */
export function SlashMenu({ items, selected, onPick }: { items: PromptView[]; selected: number; onPick: (p: PromptView) => void }) {
  if (items.length === 0) return null;
  return (
    <ul className="slash-menu" role="listbox" aria-label="Prompts">
      {items.map((p, i) => (
        <li key={`${p.server}/${p.template ?? ''}/${p.name}`} role="option" aria-selected={i === selected}
          className={i === selected ? 'selected' : ''} onMouseDown={(e) => { e.preventDefault(); onPick(p); }}>
          <span className="badge">{p.server}</span> <ServerIcon src={p.icon} /><strong>/{p.name}</strong>
          {p.template && <span className="tag small" title={p.template}>resource</span>}
          <span className="muted small"> {p.description || p.title}</span>
        </li>
      ))}
    </ul>
  );
}

/** PromptArgs asks for a prompt's arguments, then expands it into the composer. */
export function PromptArgs({ prompt, onText, onCancel }: { prompt: PromptView; onText: (t: string) => void; onCancel: () => void }) {
  const [args, setArgs] = useState<Record<string, string>>({});
  const [err, setErr] = useState('');
  const use = async (e: React.FormEvent) => {
    e.preventDefault();
    try {
      // A resource template reads the resource its filled-in URI names.
      onText(await call(() => prompt.template ? UseTemplate(prompt.server, prompt.template, args) : UsePrompt(prompt.server, prompt.name, args)));
    } catch (x) {
      setErr(message(x));
    }
  };
  return (
    <form className="prompt-args" aria-label={`Arguments of ${prompt.name}`} onSubmit={(e) => void use(e)}
      onKeyDown={(e) => { if (e.key === 'Escape') onCancel(); }}>
      <strong>/{prompt.name}</strong> <span className="muted small">{prompt.description}</span>
      {prompt.arguments.map((a, i) => (
        <label key={a.name}>
          {a.name}{a.required ? ' *' : ''}
          <CompletingInput completion={prompt.template ? { server: prompt.server, template: prompt.template } : { server: prompt.server, prompt: prompt.name }} name={a.name} given={args}
            autoFocus={i === 0} required={a.required} placeholder={a.description} value={args[a.name] ?? ''}
            onChange={(v) => setArgs({ ...args, [a.name]: v })} />
        </label>
      ))}
      {err && <span className="bad small" role="alert">{err}</span>}
      <button type="submit" className="primary">Insert</button>
      <button type="button" onClick={onCancel}>Cancel</button>
    </form>
  );
}

/** expandPrompt inserts a prompt: at once when it takes no arguments. */
export async function expandPrompt(p: PromptView): Promise<string | null> {
  if (p.arguments.length > 0) return null;
  return call(() => p.template ? UseTemplate(p.server, p.template, {}) : UsePrompt(p.server, p.name, {}));
}

/** AttachMenu lists the servers' resources; picking one reads it and attaches it to the next message. */
export function AttachMenu({ onAttach, onError }: { onAttach: (a: Attachment) => void; onError: (s: string) => void }) {
  const [open, setOpen] = useState(false);
  const [list, setList] = useState<ResourceView[] | null>(null);
  const [q, setQ] = useState('');
  useEffect(() => {
    if (open && list === null) call(Resources).then((r) => setList(r ?? []), (e: unknown) => { setList([]); onError(message(e)); });
  }, [open, list, onError]);
  const pick = (r: ResourceView) => {
    setOpen(false);
    call(() => AttachResource(r.server, r.uri)).then(
      (text) => onAttach({ server: r.server, uri: r.uri, name: r.name || r.uri, text }),
      (e: unknown) => onError(message(e)),
    );
  };
  const shown = (list ?? []).filter((r) => `${r.server} ${r.name} ${r.uri}`.toLowerCase().includes(q.toLowerCase())).slice(0, 50);
  return (
    <div className="attach">
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} title="Attach a resource from a server">Attach</button>
      {open && (
        <div className="popover attach-menu" role="dialog" aria-label="Attach a resource" onKeyDown={(e) => { if (e.key === 'Escape') setOpen(false); }}>
          <input type="search" autoFocus aria-label="Filter resources" placeholder="Filter" value={q} onChange={(e) => setQ(e.target.value)} />
          {list === null && <p className="muted small">Loading…</p>}
          <ul>
            {shown.map((r) => (
              <li key={`${r.server} ${r.uri}`}>
                <button type="button" className="link" onClick={() => pick(r)}>
                  <span className="badge">{r.server}</span> <ServerIcon src={r.icon} />{r.name || r.uri}
                </button>
              </li>
            ))}
          </ul>
          {list !== null && shown.length === 0 && <p className="muted small">{list.length === 0 ? 'No running server offers resources: add or start one on the Servers page.' : 'No resource matches: try other words.'}</p>}
        </div>
      )}
    </div>
  );
}

/** withAttachments is the message text the model gets: the user's text, then each attached resource. */
export function withAttachments(text: string, atts: Attachment[]): string {
  return atts.length === 0 ? text : `${text}\n\n${atts.map((a) => a.text.trim()).join('\n\n')}`;
}
