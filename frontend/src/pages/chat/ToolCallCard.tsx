import { useMemo, useState } from 'react';
import { prettyJSON, resultText, useChat, type CallProgress, type ToolCall } from '../../chat';
import { ToolApp } from '../../mcpapps/ToolApp';
import { toolResult } from '../../mcpapps/toolApps';
import { TaskStatus } from './TaskStatus';
import { LOAD_SKILL, SkillLoaded } from './SkillLoaded';
import { ServerIcon } from '../../components/Icon';
import { blocksSummary, ContentBlocks } from '../../components/ContentBlocks';
import { ResourceLinks } from '../../components/ResourceLinks';
import { StructuredResult } from '../../components/StructuredResult';
import { useServers } from '../../servers';
import { ScriptCode } from '../../components/ScriptCode';
import { Visible } from '../../components/Visible';
import { count } from '../../plural';
import './ToolCallCard.css';

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
  // Images, audio and resources show under the text (a delegation's answer and a loaded skill are text).
  const blocks = call.result && !delegated && call.name !== LOAD_SKILL ? call.result.content : [];
  const others = blocksSummary(blocks.filter((c) => c.type !== 'text'));
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
      {call.status === 'running' && call.progress && <ProgressLine progress={call.progress} tool={tool} />}
      {call.capped && (
        <p className="small muted capped-note" data-testid="capped-note">
          The model saw lines 1–{call.capped.shown} of {call.capped.lines} ({call.capped.seen && call.capped.seen < call.capped.chars
            ? <>its first {call.capped.seen.toLocaleString()} of {call.capped.chars.toLocaleString()} characters; lines over 1,000 bytes count as several</>
            : <>{call.capped.chars.toLocaleString()} characters</>});{' '}
          {call.capped.dropped
            ? <>this chat keeps the first {(call.capped.chars - call.capped.dropped).toLocaleString()} characters for the model to read on or search, and dropped the last {call.capped.dropped.toLocaleString()} (Settings → Chat → Long chats: Keep at most).</>
            : <>the whole result is kept with this chat, where the model can read on or search it.</>}{' '}
          Below is all of it ({SHOWN_CHARS.toLocaleString('en')} characters at a time), with a marker where the model's view ended.
        </p>
      )}
      {script && <ScriptCode src={script} label="Script" failedAt={failedLine(call)} />}
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
          {(result || call.result) && (
            <div className="small muted">{call.isError ? 'Error' : delegated ? 'Answer' : 'Result'}</div>
          )}
          {result
            ? call.capped && !call.isError && !delegated
              ? <CappedResult text={result} capped={call.capped} />
              : <LongText className={call.isError ? 'result bad' : 'result'} text={delegated && !call.isError ? answerOf(call) : result} />
            : call.result && <p className="small muted no-text">{others ? `(no text; ${others})` : '(no content)'}</p>}
          {blocks.length > 0 && <ContentBlocks content={blocks} tool={tool} text={false} />}
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

/** SHOWN_CHARS is how much of a long result is drawn at first, and how much more each "Show more" adds: a 2 MB result drawn whole kept the window busy. */
export const SHOWN_CHARS = 50_000;

/** LongText is a result's text, its first SHOWN_CHARS characters until the user asks for more. */
function LongText({ text, className }: { text: string; className: string }) {
  const [limit, setLimit] = useState(SHOWN_CHARS);
  return (
    <>
      <pre className={className}>{head(text, limit)}</pre>
      <ShowMore total={text.length} limit={limit} onMore={() => setLimit(limit + SHOWN_CHARS)} />
    </>
  );
}

/** head is text's first n UTF-16 units, one fewer rather than half a surrogate pair. */
function head(text: string, n: number): string {
  if (text.length <= n) return text;
  const c = text.charCodeAt(n - 1);
  return text.slice(0, c >= 0xd800 && c <= 0xdbff ? n - 1 : n);
}

function ShowMore({ total, limit, onMore }: { total: number; limit: number; onMore: () => void }) {
  if (total <= limit) return null;
  return (
    <button type="button" className="link small show-more" onClick={onMore}>
      Show more ({count(total - limit, 'more character')}; {limit.toLocaleString('en')} shown)
    </button>
  );
}

type Capped = NonNullable<ToolCall['capped']>;

/**
 * CappedResult is a capped result, its first SHOWN_CHARS characters until the user asks for more,
 * with a marker where the model's view ended: after capped.seen characters, or (a result stored
 * before those were counted) after line capped.shown, counting a line longer than 1,000 bytes as
 * pieces, as the model was shown it then.
 */
function CappedResult({ text, capped }: { text: string; capped: Capped }) {
  const [limit, setLimit] = useState(SHOWN_CHARS);
  const end = useMemo(() => (capped.seen ? charIndex(text, capped.seen) : pieceEnd(text, capped.shown ?? 0)), [text, capped.seen, capped.shown]);
  const upTo = head(text, limit).length;
  const marked = end > 0 && end < upTo;
  const where = capped.seen
    ? `after ${capped.seen.toLocaleString('en')} of ${capped.chars.toLocaleString('en')} characters`
    : `at line ${capped.shown ?? 0} of ${capped.lines}`;
  return (
    <>
      <pre className="result capped">
        {text.slice(0, marked ? end : upTo)}
        {marked && (
          <>
            {'\n'}
            <span className="capped-marker" role="separator" aria-label="The model's view ended here">
              ── the model's view ended here, {where} ──
            </span>
            {'\n'}
            {text.slice(end, upTo)}
          </>
        )}
      </pre>
      <ShowMore total={text.length} limit={limit} onMore={() => setLimit(limit + SHOWN_CHARS)} />
    </>
  );
}

/** charIndex is where in text (UTF-16) its first chars characters (code points, as Go counts runes) end. */
export function charIndex(text: string, chars: number): number {
  let i = 0;
  for (let n = 0; n < chars && i < text.length; n++) i += (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
  return i;
}

/** KEPT_LINE is the most UTF-8 bytes of a line a kept result holds (app/chat/kept.go maxKeptLine). */
const KEPT_LINE = 1000;

/**
 * pieceEnd is where line `line` of text ends when each line longer than KEPT_LINE bytes counts as
 * pieces of at most that many, as the model's line count had it (app/chat/kept.go wrapLong);
 * text.length when text has fewer.
 */
export function pieceEnd(text: string, line: number): number {
  let n = 0;
  let size = 0;
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i) ?? 0;
    const w = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (cp === 10 || size + w > KEPT_LINE) {
      if (++n === line) return i;
      size = 0;
      if (cp === 10) {
        i++;
        continue;
      }
    }
    size += w;
    i += cp > 0xffff ? 2 : 1;
  }
  return text.length;
}

/**
 * ProgressLine is how far a running call is, as its server reports it: a bar when the server says of
 * how much, else its message and the count so far.
 */
function ProgressLine({ progress: p, tool }: { progress: CallProgress; tool: string }) {
  const total = p.total ?? 0;
  const known = total > 0;
  const n = (v: number) => v.toLocaleString('en', { maximumFractionDigits: 2 });
  const amount = known
    ? Number.isInteger(total) && total > 1 ? `${n(p.progress)} of ${n(total)}` : `${Math.round(Math.min(1, p.progress / total) * 100)}%`
    : `${n(p.progress)} so far`;
  const text = p.message ? `${p.message} (${amount})` : amount;
  return (
    <div className="call-progress small" data-testid="call-progress" role="progressbar" aria-label={`Progress of ${tool}`}
      aria-valuemin={known ? 0 : undefined} aria-valuemax={known ? total : undefined}
      aria-valuenow={known ? Math.max(0, Math.min(p.progress, total)) : undefined} aria-valuetext={text}>
      {known && <span className="call-progress-bar"><span style={{ width: `${Math.max(0, Math.min(1, p.progress / total)) * 100}%` }} /></span>}
      <span className="muted">{text}</span>
    </div>
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

/** ScriptOut is run_script's structured result (app/chat's ScriptResult). */
type ScriptOut = { value?: unknown; logs?: string[]; error?: string };

function scriptOut(call: ToolCall): ScriptOut {
  try {
    return JSON.parse(call.result?.structured || '{}') as ScriptOut;
  } catch {
    return {}; // not ended yet, or no script result
  }
}

/** failedLine is the line a script's error names ("failed at line 6", "It was running line 2"), 0 for none. */
export function failedLine(call: ToolCall): number {
  const m = /(?:failed at line|was running line) (\d+)/.exec(scriptOut(call).error ?? '');
  return m ? Number(m[1]) : 0;
}

/** BASE64_FIELD is the base64 of an image, audio or file part as pretty JSON writes it. */
const BASE64_FIELD = /"(data|blob)": "([A-Za-z0-9+/]{512,}={0,2})"/g;

/** withoutBase64 is output with long base64 strings written as their size: the images among them show below it. */
export function withoutBase64(text: string): string {
  return text.replace(BASE64_FIELD, (_m, key: string, b64: string) => `"${key}": "[base64, ${b64.length.toLocaleString('en')} characters]"`);
}

/**
 * ScriptOutput shows what a code-mode script printed and returned (or why it stopped), and the images and audio
 * it passed on (the result's parts after its text); its calls are the nested cards above.
 */
function ScriptOutput({ call }: { call: ToolCall }) {
  const out = scriptOut(call);
  const media = (call.result?.content ?? []).filter((c) => c.type === 'image' || c.type === 'audio');
  return (
    <div className="script-view">
      {(out.logs?.length ?? 0) > 0 && <Folded label="Printed" text={withoutBase64(out.logs!.join('\n'))} />}
      {out.error
        ? <p className="small bad script-error" aria-label="Script error">{out.error}</p>
        : out.value !== undefined && <Folded label="Returned" text={withoutBase64(typeof out.value === 'string' ? out.value : JSON.stringify(out.value, null, 2))} />}
      {media.length > 0 && <ContentBlocks content={media} tool="run_script" text={false} />}
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
