import { useState } from 'react';
import { ChatSettings, SetToolSearch } from '../../wailsjs/go/app/SettingsPage';
import { useSettingsForm } from './useSettingsForm';

/** ToolSearchSettings: above how many active tools the model searches them (find_tools), and the tools always offered. */
export function ToolSearchSettings() {
  const [above, setAbove] = useState('40');
  const [pinned, setPinned] = useState('');
  const { note, err, edit, save } = useSettingsForm(() => ChatSettings(), (s) => {
    setAbove(String(s.toolSearchAbove));
    setPinned((s.pinned ?? []).join('\n'));
  });
  return (
    <form className="tool-search-settings" aria-label="Tool search" onSubmit={(e) => { e.preventDefault(); void save(() => SetToolSearch(Number(above) || 0, pinned.split('\n'))); }}>
      <p className="muted small">With many servers, models choose tools badly. Above this many active tools, the model first gets <code>find_tools</code> and sees only the tools it finds.</p>
      <label>Search tools above <input type="number" min={0} value={above} onChange={(e) => { edit(); setAbove(e.target.value); }} /> active tools (0: never)</label>
      <label>Always offer these tools (server__tool, one per line)
        <textarea rows={3} value={pinned} placeholder="workspace__read_file" onChange={(e) => { edit(); setPinned(e.target.value); }} />
      </label>
      <div className="row">
        <button type="submit">Save tool search</button>
        {note && <span className="small muted" role="status">{note}</span>}
      </div>
      {err && <div className="alert" role="alert">{err}</div>}
    </form>
  );
}
