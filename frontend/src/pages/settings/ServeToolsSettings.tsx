import { useState } from 'react';
import { ServeTools, SetServeTools } from '../../backend';
import { TOOL_MODES } from '../../components/ToolModeChoice';
import { useSettingsForm } from '../../components/useSettingsForm';

/**
 * ServeToolsSettings: how the apps that use Switchboard as their MCP
 * server (the Connected apps, any `switchboard serve`) are offered the
 * tools (settings.serve.tools): direct, code mode or both. Attached apps
 * follow a change at once; `serve --code` chooses for one run.
 */
export function ServeToolsSettings() {
  const [mode, setMode] = useState('');
  const { note, err, edit, save, formRef, standalone } = useSettingsForm(() => ServeTools(), (m) => setMode(m || 'direct'));
  return (
    <form ref={formRef} className="tool-mode-settings" aria-label="Code mode for connected apps" onSubmit={(e) => { e.preventDefault(); void save(() => SetServeTools(mode)); }}>
      <fieldset className="tool-mode" role="radiogroup" aria-label="How connected apps call tools">
        <legend className="small">How <a href="#/apps">connected apps</a> call tools</legend>
        {TOOL_MODES.map((m) => (
          <label key={m.mode}>
            <input type="radio" name="settings-serve-tools" value={m.mode} checked={mode === m.mode} onChange={() => { edit(); setMode(m.mode); }} />
            <span><strong>{m.label}</strong>{m.mode === 'direct' && <> (the default)</>} <span className="muted small">— {m.note.replace('the model', "the app's model")}</span></span>
          </label>
        ))}
      </fieldset>
      <p className="muted small">Apps attached to this window switch at once (they are told their tool list changed). A call a script makes is decided by your approval rules; one that asks goes to the app as a question. <code>switchboard serve --code</code> or <code>--code=false</code> chooses for one run.</p>
      <div className="row">
        {standalone && <button type="submit">Save</button>}
        {note && <span className="small muted" role="status">{note}</span>}
      </div>
      {err && <div className="alert" role="alert">{err}</div>}
    </form>
  );
}
