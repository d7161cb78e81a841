import { useState } from 'react';
import { prettyJSON, resultText, useChat, type ToolCall } from '../../chat';
import { ToolApp } from '../../mcpapps/ToolApp';
import { toolResult } from '../../mcpapps/toolApps';
import { TaskStatus } from './TaskStatus';
import { LOAD_SKILL, SkillLoaded } from './SkillLoaded';
import { ServerIcon } from '../../components/Icon';
import { ResourceLinks } from '../../components/ResourceLinks';
import { StructuredResult } from '../../components/StructuredResult';
import { useServers } from '../../servers';
import { ScriptCode } from '../../components/ScriptCode';
import { Visible } from '../../components/Visible';

const LABEL: Record<string, string> = {
  streaming: 'preparing', pending: 'waiting for approval', running: 'running', done: 'done',
  error: 'failed', denied: 'denied', cancelled: 'cancelled',
};

/**
 * ToolCallCard shows one tool call: server badge, name, status, duration;
 * arguments and result when expanded. A delegated call (ask_<server>) shows
 * its sub-agent's steps nested under it, each a card of its own.
 */
export function ToolCallCard({ call }: { call: ToolCall }) {
  const [open, setOpen] = useState(false);
  // find_tools belongs to no server: Switchboard answers it itself. A call still streaming is named
  // by its name's server; one that ended without a server never reached one (a tool the model was not
  // given: Switchboard refused it), so it is not drawn as that server's.
  const server = call.server || (call.status === 'streaming' && call.name.includes('__') ? (call.name.split('__')[0] ?? 'switchboard') : 'switchboard');
  const tool = call.tool || call.name.split('__').slice(1).join('__') || call.name;
  const result = call.error || resultText(call.result);
  const steps = call.steps ?? [];
  const delegated = call.name.startsWith('ask_');
  const script = call.name === RUN_SCRIPT && !call.parent ? scriptOf(call.args) : '';
  // A task the user (or the server) cancelled ended with an error result, but did not fail.
  const cancelledTask = call.status === 'error' && call.task?.status === 'cancelled';
  const chatId = useChat((s) => s.current);
  const icon = useServers().servers.find((s) => s.name === server)?.icon;
  return (
    <div className={`tool-card status-${call.status}${call.parent ? ' sub' : ''}`} data-testid={call.parent ? 'sub-step' : 'tool-card'}>
      <button type="button" className="tool-card-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="badge"><ServerIcon src={icon} />{server}</span>
        <code>{tool}</code>
        <span className={`tool-status ${call.isError && !cancelledTask ? 'bad' : ''}`}>{cancelledTask ? 'cancelled' : LABEL[call.status] ?? call.status}</span>
        {delegated && <span className="muted small">{steps.length} {steps.length === 1 ? 'step' : 'steps'}</span>}
        {call.durationMs > 0 && <span className="muted small" title={`${call.durationMs.toLocaleString('en')} ms${delegated || script ? ', without the time approvals waited for you' : ''}`}>{duration(call.durationMs)}</span>}
        {call.capped && <span className="badge warn small" title="The result was longer than its share of the model's context window">capped</span>}
      </button>
      {call.capped && (
        <p className="small muted capped-note" data-testid="capped-note">
          The model saw lines 1–{call.capped.shown} of {call.capped.lines} ({call.capped.chars.toLocaleString()} characters);{' '}
          {call.capped.dropped
            ? <>this chat keeps the first {(call.capped.chars - call.capped.dropped).toLocaleString()} characters for the model to read on or search, and dropped the last {call.capped.dropped.toLocaleString()} (Settings → Chat → Long chats: Keep at most).</>
            : <>the whole result is kept with this chat, where the model can read on or search it.</>}{' '}
          Below is all of it, with a marker where the model's view ended.
        </p>
      )}
      {script && <ScriptCode src={script} label="Script" />}
      <TaskStatus call={call} server={server} />
      <SkillLoaded call={call} />
      {!delegated && <ToolApp name={call.name} call={{ args: call.args, result: call.result ? toolResult(call.result) : undefined, status: call.status }} chatId={chatId} />}
      {steps.length > 0 && (
        <>
          {script && <p className="small muted script-calls-head">{callsSummary(steps)}</p>}
          <ol className="sub-steps" aria-label={script ? 'Calls the script made' : `Steps of ${call.name}`}>
            {steps.map((s) => (
              <li key={s.id}><ToolCallCard call={s} /></li>
            ))}
          </ol>
        </>
      )}
      {script && <ScriptOutput call={call} />}
      {open && (
        <div className="tool-card-body">
          <div className="small muted">Arguments</div>
          <pre className="args"><Visible text={prettyJSON(call.args || '{}')} /></pre>
          {result && (
            <>
              <div className="small muted">{call.isError ? 'Error' : delegated ? 'Answer' : 'Result'}</div>
              {call.capped && !call.isError && !delegated
                ? <CappedResult text={result} shown={call.capped.shown ?? 0} lines={call.capped.lines} />
                : <pre className={call.isError ? 'result bad' : 'result'}>{delegated && !call.isError ? answerOf(call) : result}</pre>}
            </>
          )}
          {call.result && !delegated && call.name !== LOAD_SKILL && (
            <>
              <ResourceLinks content={call.result.content} server={server} />
              {/* The result once: a structured copy of the text above is not shown again (a capped 400 KB result was, twice). */}
              <StructuredResult structured={sameJSON(result, call.result.structured) || (call.capped && result === call.result.structured) ? '' : call.result.structured}
                schemaError={call.result.schemaError} />
            </>
          )}
        </div>
      )}
    </div>
  );
}

/** duration writes a call's time as people read it: "850 ms", "2.4 s", "14 s", "2 min 30 s", "1 h 5 min". */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 10_000) return `${(Math.floor(ms / 100) / 10).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return s % 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s / 60} min`;
  const min = Math.round(s / 60);
  return min % 60 ? `${Math.floor(min / 60)} h ${min % 60} min` : `${min / 60} h`;
}

/** CappedResult is a capped result, whole, with a marker after the last line the model saw. */
function CappedResult({ text, shown, lines }: { text: string; shown: number; lines: number }) {
  const all = text.split('\n');
  const seen = shown > 0 && shown < all.length ? shown : all.length;
  return (
    <pre className="result capped">
      {all.slice(0, seen).join('\n')}
      {seen < all.length && (
        <>
          {'\n'}
          <span className="capped-marker" role="separator" aria-label="The model's view ended here">
            ── the model's view ended here, at line {seen} of {lines || all.length} ──
          </span>
          {'\n'}
          {all.slice(seen).join('\n')}
        </>
      )}
    </pre>
  );
}

/** sameJSON says whether text and structured are the same JSON value (a server sends both, as the spec asks). */
function sameJSON(text: string, structured: string): boolean {
  if (!text || !structured) return false;
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(JSON.parse(structured));
  } catch {
    return false;
  }
}

/** RUN_SCRIPT is code mode's tool that runs the model's script (app/chat/codemode.go). */
const RUN_SCRIPT = 'run_script';

function scriptOf(args: string): string {
  try {
    const a = JSON.parse(args || '{}') as { script?: unknown };
    return typeof a.script === 'string' ? a.script : '';
  } catch {
    return '';
  }
}

/** callsSummary says how many calls a script made and how they ended ("3 calls: 2 done, 1 denied"). */
export function callsSummary(steps: ToolCall[]): string {
  const by = new Map<string, number>();
  for (const s of steps) {
    const label = s.isError && s.status === 'done' ? 'failed' : LABEL[s.status] ?? s.status;
    by.set(label, (by.get(label) ?? 0) + 1);
  }
  const parts = [...by.entries()].map(([k, n]) => `${n} ${k}`);
  return `${steps.length} ${steps.length === 1 ? 'call' : 'calls'}: ${parts.join(', ')}`;
}

/** ScriptOutput shows what a code-mode script printed and returned (or why it stopped); its calls are the nested cards above. */
function ScriptOutput({ call }: { call: ToolCall }) {
  let out: { value?: unknown; logs?: string[]; error?: string } = {};
  try {
    out = JSON.parse(call.result?.structured || '{}') as typeof out;
  } catch { /* not ended yet, or no script result */ }
  return (
    <div className="script-view">
      {(out.logs?.length ?? 0) > 0 && <Folded label="Printed" text={out.logs!.join('\n')} />}
      {out.error
        ? <p className="small bad script-error" aria-label="Script error">{out.error}</p>
        : out.value !== undefined && <Folded label="Returned" text={typeof out.value === 'string' ? out.value : JSON.stringify(out.value, null, 2)} />}
    </div>
  );
}

/** FOLD_LINES is how many lines of a script's output show before "Show all". */
const FOLD_LINES = 8;

/** Folded is a labelled block of output, its first FOLD_LINES lines until opened. */
function Folded({ label, text }: { label: string; text: string }) {
  const [open, setOpen] = useState(false);
  const lines = text.split('\n');
  const long = lines.length > FOLD_LINES;
  return (
    <div className="script-out">
      <div className="small muted">{label}{long && <> · {lines.length} lines</>}</div>
      <pre className="result" aria-label={label}>{long && !open ? `${lines.slice(0, FOLD_LINES).join('\n')}\n…` : text}</pre>
      {long && (
        <button type="button" className="link small" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Show less' : `Show all ${lines.length} lines`}
        </button>
      )}
    </div>
  );
}

/** answerOf is a delegated call's answer text, without its structured steps. */
function answerOf(call: ToolCall): string {
  const text = (call.result?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text ?? '').join('\n');
  return text || resultText(call.result);
}
