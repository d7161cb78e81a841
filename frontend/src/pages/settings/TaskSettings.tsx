import { useState } from 'react';
import { SetTaskSettings, TaskSettings as LoadTaskSettings } from '../../backend';
import { useSettingsForm } from '../../components/useSettingsForm';

/**
 * TaskSettings: tools that require MCP tasks always run as tasks; this says
 * whether tools that merely allow them do too, and how long a task may run
 * (the tool timeout does not cut a task).
 */
export function TaskSettings() {
  const [optional, setOptional] = useState(true);
  const [minutes, setMinutes] = useState('30');
  const { note, err, edit, save, formRef, standalone } = useSettingsForm(() => LoadTaskSettings(), (v) => { setOptional(v.optionalAsTasks); setMinutes(String(v.limitMinutes)); });
  return (
    <form ref={formRef} className="task-settings" noValidate aria-label="Tasks" onSubmit={(e) => { e.preventDefault(); void save(() => SetTaskSettings({ optionalAsTasks: optional, limitMinutes: Math.round(Number(minutes)) })); }}>
      <p className="muted small">A tool that requires it runs as an MCP task: its card shows the task's status and a Cancel button, and the tool timeout does not cut it.</p>
      <label><input type="checkbox" checked={optional} onChange={(e) => { edit(); setOptional(e.target.checked); }} /> Run tools that allow tasks as tasks too</label>
      <label>Task time limit <input type="number" min={1} max={1440} step={1} value={minutes} onChange={(e) => { edit(); setMinutes(e.target.value); }} /> minutes</label>
      <div className="row">
        {standalone && <button type="submit">Save task settings</button>}
        {note && <span className="small muted" role="status">{note}</span>}
      </div>
      {err && <div className="alert" role="alert">{err}</div>}
    </form>
  );
}
