import { useState } from 'react';
import { ChatSettings, SetToolSearch } from '../../backend';
import { useSettingsForm } from '../../components/useSettingsForm';

/**
 * ToolSearchSettings: when the model first gets find_tools instead of every
 * tool — by the size of the tool definitions against the model's context
 * window (the default), above a count of tools, or never — and the tools
 * always offered.
 */
export function ToolSearchSettings() {
  const [by, setBy] = useState('size');
  const [share, setShare] = useState('25');
  const [above, setAbove] = useState('40');
  const [pinned, setPinned] = useState('');
  const { note, err, edit, save, formRef, standalone } = useSettingsForm(() => ChatSettings(), (s) => {
    setBy(s.toolSearchBy || 'size');
    setShare(String(s.toolSearchShare || 25));
    setAbove(String(s.toolSearchAbove || 40));
    setPinned((s.pinned ?? []).join('\n'));
  });
  const choose = (v: string) => { edit(); setBy(v); };
  return (
    <form ref={formRef} className="tool-search-settings" aria-label="Tool search" onSubmit={(e) => { e.preventDefault(); void save(() => SetToolSearch(by, Number(share) || 0, Number(above) || 0, pinned.split('\n'))); }}>
      <p className="muted small">With many tools, models choose badly and the tool list fills their context. Then the model first gets <code>find_tools</code> and sees only the tools it finds. The chat's Tools menu says whether it is on, and why.</p>
      <fieldset>
        <legend className="small">Search tools</legend>
        <label className="row">
          <input type="radio" name="tool-search-by" aria-label="Search by size" checked={by === 'size'} onChange={() => choose('size')} />
          when their definitions take more than
          <input type="number" min={1} max={100} aria-label="Percent of the context window" value={share} disabled={by !== 'size'} onChange={(e) => { edit(); setShare(e.target.value); }} />
          % of the model's context window (32k assumed when the provider does not say)
        </label>
        <label className="row">
          <input type="radio" name="tool-search-by" aria-label="Search by count" checked={by === 'count'} onChange={() => choose('count')} />
          above
          <input type="number" min={1} aria-label="Tool count" value={above} disabled={by !== 'count'} onChange={(e) => { edit(); setAbove(e.target.value); }} />
          active tools
        </label>
        <label className="row">
          <input type="radio" name="tool-search-by" aria-label="Never search" checked={by === 'off'} onChange={() => choose('off')} />
          never (the model always sees every active tool)
        </label>
      </fieldset>
      <label>Always offer these tools (server__tool, one per line)
        <textarea rows={3} value={pinned} placeholder="workspace__read_file" onChange={(e) => { edit(); setPinned(e.target.value); }} />
      </label>
      <div className="row">
        {standalone && <button type="submit">Save tool search</button>}
        {note && <span className="small muted" role="status">{note}</span>}
      </div>
      {err && <div className="alert" role="alert">{err}</div>}
    </form>
  );
}
