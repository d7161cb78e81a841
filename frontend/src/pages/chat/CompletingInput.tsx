import { useEffect, useRef, useState } from 'react';
import { call, CompleteArgument } from '../../backend';

/** What a completion is for: a prompt's argument or a resource template's variable. */
export type CompletionRef = { server: string; prompt?: string; template?: string };

/**
 * CompletingInput is an argument field of the slash-command form that asks
 * the server for values (completion/complete) as the user types, passing
 * the arguments already filled in; suggestions are listed under it and
 * picked by click, or with the arrow keys and Enter.
 */
export function CompletingInput({ completion, name, value, given, onChange, ...input }: {
  completion: CompletionRef; name: string; value: string; given: Record<string, string>; onChange: (v: string) => void;
} & Omit<React.InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'name'>) {
  const [items, setItems] = useState<string[]>([]);
  const [focused, setFocused] = useState(false);
  const [active, setActive] = useState(-1);
  const seq = useRef(0);
  // The list closes a moment after the field loses focus (a click on a suggestion lands first);
  // focus back before then keeps it open, and the closing is called off.
  const closing = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(closing.current), []);
  // The other arguments' values, as the effect's dependency: a new given object with the same values asks nothing again.
  const others = JSON.stringify(Object.fromEntries(Object.entries(given).filter(([k, v]) => k !== name && v !== '')));
  useEffect(() => {
    if (!focused) return;
    const filled = JSON.parse(others) as Record<string, string>;
    const n = ++seq.current;
    call(() => CompleteArgument(completion.server, completion.prompt ?? '', completion.template ?? '', name, value, filled)).then(
      (vs) => { if (n === seq.current) { setItems((vs ?? []).slice(0, 20)); setActive(-1); } },
      () => { if (n === seq.current) setItems([]); },
    );
  }, [focused, value, others, name, completion.server, completion.prompt, completion.template]);
  const listId = `complete-${completion.server}-${completion.prompt ?? completion.template}-${name}`.replace(/[^a-zA-Z0-9_-]/g, '_');
  const shown = focused && items.length > 0;
  return (
    <span className="completing">
      <input {...input} value={value} role="combobox" aria-autocomplete="list" aria-expanded={shown} aria-controls={listId}
        aria-activedescendant={shown && active >= 0 ? `${listId}-${active}` : undefined}
        onChange={(e) => onChange(e.target.value)}
        onFocus={() => { clearTimeout(closing.current); setFocused(true); }}
        onBlur={() => { clearTimeout(closing.current); closing.current = setTimeout(() => setFocused(false), 150); }}
        onKeyDown={(e) => {
          if (!shown) return;
          if (e.key === 'ArrowDown') { e.preventDefault(); setActive((active + 1) % items.length); }
          else if (e.key === 'ArrowUp') { e.preventDefault(); setActive((active - 1 + items.length) % items.length); }
          else if (e.key === 'Enter' && active >= 0) { e.preventDefault(); onChange(items[active] ?? value); setItems([]); }
          else if (e.key === 'Escape') { e.stopPropagation(); setItems([]); }
        }} />
      {shown && (
        <ul className="completions" role="listbox" id={listId} aria-label={`Suggestions for ${name}`}>
          {items.map((v, i) => (
            <li key={v} id={`${listId}-${i}`} role="option" aria-selected={i === active}
              onMouseDown={(e) => { e.preventDefault(); onChange(v); setItems([]); }}>{v}</li>
          ))}
        </ul>
      )}
    </span>
  );
}
