import { useState } from 'react';
import { ChatSettings, SetToolMode } from '../../backend';
import { kTokens, ToolModeChoice } from '../../components/ToolModeChoice';
import { useSettingsForm } from '../../components/useSettingsForm';

/**
 * ToolModeSettings: how chats offer the tools when neither the chat nor its
 * agent chose (settings.chat.tools): automatic by the model's context
 * window, direct, code mode or both.
 */
export function ToolModeSettings() {
  const [mode, setMode] = useState('');
  const [codeWindow, setCodeWindow] = useState(32768);
  const { note, err, edit, save, formRef, standalone } = useSettingsForm(() => ChatSettings(), (s) => {
    setMode(s.tools ?? '');
    setCodeWindow(s.codeModeWindow || 32768);
  });
  return (
    <form ref={formRef} className="tool-mode-settings" aria-label="Code mode" onSubmit={(e) => { e.preventDefault(); void save(() => SetToolMode(mode)); }}>
      <ToolModeChoice name="settings-tool-mode" legend="How the model calls tools" value={mode}
        auto={<>code mode for models whose context window is {kTokens(codeWindow)} tokens or less, direct for larger ones and when the window is not known (the default).</>}
        onChange={(m) => { edit(); setMode(m); }} />
      <p className="muted small">A chat chooses its own in its Tools menu, an agent in its form on the Agents page (Tool mode; a delegating agent uses none). <code>switchboard chat --tools code|direct|both</code> chooses for one run.</p>
      <div className="row">
        {standalone && <button type="submit">Save code mode</button>}
        {note && <span className="small muted" role="status">{note}</span>}
      </div>
      {err && <div className="alert" role="alert">{err}</div>}
    </form>
  );
}
