import { useState } from 'react';
import { call as backend, CancelTask } from '../../backend';
import { message } from '../../errors';
import type { ToolCall } from '../../chat';

const TASK_LABEL: Record<string, string> = {
  working: 'working', input_required: 'needs your input', completed: 'completed', failed: 'failed', cancelled: 'cancelled',
};

/**
 * TaskStatus shows, on the card of a tool call that runs as an MCP task,
 * the task's status and the server's status message as they change, and
 * Cancel (tasks/cancel) while it is still working.
 */
export function TaskStatus({ call, server }: { call: ToolCall; server: string }) {
  const [cancelling, setCancelling] = useState(false);
  const [err, setErr] = useState('');
  const task = call.task;
  if (!task) return null;
  const live = call.status === 'running' && (task.status === 'working' || task.status === 'input_required');
  return (
    <div className="task-status small" role="status" aria-label={`Task of ${call.name}`} data-task-status={task.status}>
      <span className="badge">task {TASK_LABEL[task.status] ?? task.status}</span>
      {task.message && <span className="muted"> {task.message}</span>}
      {live && (
        <button type="button" className="danger small" disabled={cancelling}
          onClick={() => {
            setCancelling(true);
            setErr('');
            backend(() => CancelTask(server, task.id)).catch((x: unknown) => {
              setErr(message(x));
              setCancelling(false);
            });
          }}>
          {cancelling ? 'Cancelling…' : 'Cancel task'}
        </button>
      )}
      {err && <span className="bad" role="alert"> {err}</span>}
    </div>
  );
}
