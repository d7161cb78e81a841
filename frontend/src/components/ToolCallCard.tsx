import { useState } from 'react';
import { resultText, type ToolCall } from '../chat';

const LABEL: Record<string, string> = {
  streaming: 'preparing', pending: 'waiting for approval', running: 'running', done: 'done',
  error: 'failed', denied: 'denied', cancelled: 'cancelled',
};

function pretty(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

/** ToolCallCard shows one tool call: server badge, name, status, duration; arguments and result when expanded. */
export function ToolCallCard({ call }: { call: ToolCall }) {
  const [open, setOpen] = useState(false);
  const server = call.server || call.name.split('__')[0];
  const tool = call.tool || call.name.split('__').slice(1).join('__');
  const result = call.error || resultText(call.result);
  return (
    <div className={`tool-card status-${call.status}`} data-testid="tool-card">
      <button type="button" className="tool-card-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="badge">{server}</span>
        <code>{tool}</code>
        <span className={`tool-status ${call.isError ? 'bad' : ''}`}>{LABEL[call.status] ?? call.status}</span>
        {call.durationMs > 0 && <span className="muted small">{call.durationMs} ms</span>}
      </button>
      {open && (
        <div className="tool-card-body">
          <div className="small muted">Arguments</div>
          <pre className="args">{pretty(call.args || '{}')}</pre>
          {result && (
            <>
              <div className="small muted">{call.isError ? 'Error' : 'Result'}</div>
              <pre className={call.isError ? 'result bad' : 'result'}>{result}</pre>
            </>
          )}
        </div>
      )}
    </div>
  );
}
