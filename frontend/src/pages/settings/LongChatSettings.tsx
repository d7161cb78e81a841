import { useState } from 'react';
import { ChatSettings, SetLongChats } from '../../backend';
import { useSettingsForm } from '../../components/useSettingsForm';

/**
 * LongChatSettings: how a chat stays within its model's context window — where the earlier messages are
 * summarised, how much of the window one tool result may take before the model gets its head and a
 * handle to the rest, how much of such a result is kept for the model to read on, budgets per tool, and
 * context windows per model the provider does not tell.
 */
export function LongChatSettings() {
  const [at, setAt] = useState('80');
  const [share, setShare] = useState('15');
  const [keep, setKeep] = useState('4');
  const [budgets, setBudgets] = useState('');
  const [windows, setWindows] = useState('');
  const { note, err, edit, save, formRef, standalone } = useSettingsForm(() => ChatSettings(), (s) => {
    setAt(String(s.compactAt || 80));
    setShare(String(s.resultShare || 15));
    setKeep(String(s.keepMB || 4));
    setBudgets((s.resultBudgets ?? []).join('\n'));
    setWindows((s.contextWindows ?? []).join('\n'));
  });
  const lines = (s: string) => s.split('\n');
  return (
    <form ref={formRef} className="long-chat-settings" aria-label="Long chats"
      onSubmit={(e) => { e.preventDefault(); void save(() => SetLongChats(Number(at) || 0, Number(share) || 0, Number(keep) || 0, lines(budgets), lines(windows))); }}>
      <p className="muted small">Each chat header shows how much of the model's context window the next request takes. Past a point the earlier messages are summarised for the model; the chat and its exports keep them all.</p>
      <label className="row">
        Summarise earlier messages at
        <input type="number" min={10} max={95} aria-label="Summarise at percent of the context window" value={at} onChange={(e) => { edit(); setAt(e.target.value); }} />
        % of the model's context window
      </label>
      <label className="row">
        One tool result may take
        <input type="number" min={1} max={50} aria-label="Percent of the context window one tool result may take" value={share} onChange={(e) => { edit(); setShare(e.target.value); }} />
        % of the window; a longer one reaches the model as its first lines, and the model reads on in what the chat keeps of it
      </label>
      <label className="row">
        Keep at most
        <input type="number" min={1} max={64} aria-label="Megabytes of one long tool result kept for the model" value={keep} onChange={(e) => { edit(); setKeep(e.target.value); }} />
        MB of one long result for the model to read on; the rest is dropped and its card says so
      </label>
      <label>Result budgets per tool or server (server__tool=characters or server__*=characters, one per line)
        <textarea rows={2} value={budgets} placeholder="workspace__read_file=20000" onChange={(e) => { edit(); setBudgets(e.target.value); }} />
      </label>
      <label>Context windows, over what the provider tells (provider/model=tokens, one per line)
        <textarea rows={2} value={windows} placeholder="Ollama/qwen3:8b=32768" onChange={(e) => { edit(); setWindows(e.target.value); }} />
      </label>
      <div className="row">
        {standalone && <button type="submit">Save long chats</button>}
        {note && <span className="small muted" role="status">{note}</span>}
      </div>
      {err && <div className="alert" role="alert">{err}</div>}
    </form>
  );
}
