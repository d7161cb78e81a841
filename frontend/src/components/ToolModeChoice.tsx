import type { ReactNode } from 'react';

/** TOOL_MODES are the ways a chat offers the tools to the model (chat.ToolsDirect, ToolsCode, ToolsBoth), with what each means. */
export const TOOL_MODES = [
  { mode: 'direct', label: 'Direct', note: 'the model sees every tool and calls them one at a time; each call and result goes through its context.' },
  { mode: 'code', label: 'Code', note: 'the model writes one short script that calls the tools; only what the script prints and returns enters its context. Each call is still approved as a direct one would be.' },
  { mode: 'both', label: 'Both', note: 'the tools and the script, side by side; the model chooses.' },
] as const;

/** modeLabel is a tool mode as a word ("code" → "Code"). */
export function modeLabel(mode: string): string {
  return TOOL_MODES.find((m) => m.mode === mode)?.label ?? mode;
}

/** kTokens writes a token count as "8k" / "128k". */
export function kTokens(n: number): string {
  return n >= 1000 ? `${Math.round(n / 1024)}k` : String(n);
}

/**
 * ToolModeChoice: radios for "" (automatic, described by auto) and the
 * three tool modes, each with what it means.
 */
export function ToolModeChoice({ name, legend, value, auto, onChange }: {
  name: string; legend: string; value: string; auto: ReactNode; onChange: (mode: string) => void;
}) {
  return (
    <fieldset className="tool-mode" role="radiogroup" aria-label={legend}>
      <legend className="small">{legend}</legend>
      <label>
        <input type="radio" name={name} value="" checked={value === ''} onChange={() => onChange('')} />
        <span><strong>Automatic</strong> <span className="muted small">— {auto}</span></span>
      </label>
      {TOOL_MODES.map((m) => (
        <label key={m.mode}>
          <input type="radio" name={name} value={m.mode} checked={value === m.mode} onChange={() => onChange(m.mode)} />
          <span><strong>{m.label}</strong> <span className="muted small">— {m.note}</span></span>
        </label>
      ))}
    </fieldset>
  );
}
