import { useState } from 'react';
import { ChatSettings, SetSampling } from '../../backend';
import { useSettingsForm } from '../../components/useSettingsForm';

/**
 * SamplingSettings: what a server may do when it asks to use the model (sampling) — ask every
 * time (the default), allow a few per chat and then ask, or refuse — how often a server may ask,
 * and whether it may ask while none of its tool calls runs. The command line's --yes is no yes
 * to sampling: it follows these settings too.
 */
export function SamplingSettings() {
  const [mode, setMode] = useState('ask');
  const [perChat, setPerChat] = useState('5');
  const [perMinute, setPerMinute] = useState('10');
  const [outside, setOutside] = useState(false);
  const { note, err, edit, save, formRef, standalone } = useSettingsForm(() => ChatSettings(), (s) => {
    setMode(s.sampling?.mode || 'ask');
    setPerChat(String(s.sampling?.perChat || 5));
    setPerMinute(String(s.sampling?.perMinute || 10));
    setOutside(!!s.sampling?.outsideCalls);
  });
  const choose = (v: string) => { edit(); setMode(v); };
  return (
    <form ref={formRef} className="sampling-settings" aria-label="Sampling" onSubmit={(e) => { e.preventDefault(); void save(() => SetSampling(mode, Number(perChat) || 0, Number(perMinute) || 0, outside)); }}>
      <p className="muted small">A server can ask your model to write something for it (sampling). That spends your tokens on a prompt the server wrote, so it is limited here; <code>switchboard chat --yes</code> follows these settings too. Each refused request shows a line in the chat.</p>
      <fieldset>
        <legend className="small">When a server asks to use the model</legend>
        <label className="row">
          <input type="radio" name="sampling-mode" aria-label="Ask every time" checked={mode === 'ask'} onChange={() => choose('ask')} />
          ask every time, showing the exact request
        </label>
        <label className="row">
          <input type="radio" name="sampling-mode" aria-label="Allow some per chat" checked={mode === 'allow'} onChange={() => choose('allow')} />
          allow the first
          <input type="number" min={1} max={1000} aria-label="Requests per chat without asking" value={perChat} disabled={mode !== 'allow'} onChange={(e) => { edit(); setPerChat(e.target.value); }} />
          requests of each chat without asking, then ask
        </label>
        <label className="row">
          <input type="radio" name="sampling-mode" aria-label="Refuse every request" checked={mode === 'deny'} onChange={() => choose('deny')} />
          refuse every request
        </label>
      </fieldset>
      <label className="row">
        At most
        <input type="number" min={1} max={1000} aria-label="Requests per server per minute" value={perMinute} onChange={(e) => { edit(); setPerMinute(e.target.value); }} />
        requests per server and minute; more are refused
      </label>
      <label className="check">
        <input type="checkbox" checked={outside} onChange={(e) => { edit(); setOutside(e.target.checked); }} />
        <span>Allow sampling outside a tool call <span className="muted">(otherwise a server may ask only while it answers one of its tool calls)</span></span>
      </label>
      <div className="row">
        {standalone && <button type="submit">Save sampling</button>}
        {note && <span className="small muted" role="status">{note}</span>}
      </div>
      {err && <div className="alert" role="alert">{err}</div>}
    </form>
  );
}
