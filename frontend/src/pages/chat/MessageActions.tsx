// What a person can do with a message of the open chat: copy an answer as
// Markdown, retry the last answer, edit one of their messages and send it
// again. The buttons are real buttons with labels, shown on hover or focus
// (always on the last message), so the keyboard reaches them too.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { cancelEdit, lastUserMessage, resend, retry, startEdit, useChat, type Message } from '../../chat';
import { Icon } from '../../components/Icon';

/** COPIED_MS is how long "Copied" shows on the Copy button. */
const COPIED_MS = 1500;

/** MessageActions is the row of buttons under a message. */
export function MessageActions({ m, last }: { m: Message; last: boolean }) {
  const running = useChat((s) => !!s.running[s.current]);
  const editing = useChat((s) => s.editing === m.id);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(t);
  }, [copied]);
  if (m.status === 'streaming' || editing) return null;
  const failed = m.status === 'error' || m.status === 'incomplete';
  if (m.role === 'user') {
    if (running) return null;
    return (
      <div className="message-actions" role="group" aria-label="Message actions">
        <button type="button" className="icon-button" aria-label="Edit and resend this message" title="Edit and resend (↑ in an empty composer)"
          onClick={() => startEdit(m.id)}>
          <Icon name="edit" /> <span>Edit</span>
        </button>
      </div>
    );
  }
  if (m.role !== 'assistant') return null;
  return (
    <div className="message-actions" role="group" aria-label="Answer actions">
      {m.text && (
        <button type="button" className="icon-button" aria-label="Copy the answer as Markdown" title="Copy as Markdown"
          onClick={() => void navigator.clipboard?.writeText(m.text).then(() => setCopied(true))}>
          <Icon name={copied ? 'check' : 'copy'} /> <span aria-live="polite">{copied ? 'Copied' : 'Copy'}</span>
        </button>
      )}
      {last && !running && !failed && <RetryButton icon />}
    </div>
  );
}

/**
 * replacedCalls counts the tool calls of the messages from index from on:
 * what a retry or a resend deletes from the chat (the tools' effects stay).
 */
export function replacedCalls(messages: Message[], from: number): number {
  return messages.slice(Math.max(from, 0)).reduce((n, m) => n + m.toolCalls.length, 0);
}

/** stayDone is what a retry or resend that deletes n tool cards says about them. */
export function stayDone(n: number): string {
  return `Its ${n === 1 ? 'tool card goes' : `${n} tool cards go`} too, but what ${n === 1 ? 'the tool' : 'the tools'} did stays done: a file a tool wrote stays written.`;
}

/**
 * RetryButton asks the model for a new answer to the last message. The new
 * answer replaces the last one with its tool cards; when it had any, it
 * says so first (the cards go, what the tools did stays), as Edit does.
 */
function RetryButton({ icon = false }: { icon?: boolean }) {
  const messages = useChat((s) => s.messages);
  const [confirming, setConfirming] = useState(false);
  const lastUser = messages.indexOf(lastUserMessage(messages)!);
  const calls = replacedCalls(messages, lastUser + 1);
  const go = () => {
    if (calls > 0 && !confirming) {
      setConfirming(true);
      return;
    }
    setConfirming(false);
    void retry();
  };
  return (
    <>
      <button type="button" className={icon ? 'icon-button' : undefined} aria-label="Retry: ask the model for a new answer"
        title="Retry: a new answer replaces this one" onClick={go} aria-expanded={calls > 0 ? confirming : undefined}>
        <Icon name="retry" /> <span>Retry</span>
      </button>
      {confirming && (
        <div className="confirm-resend" role="alertdialog" aria-label="Replace this answer?">
          <p>Retrying replaces this answer with a new one. {stayDone(calls)}</p>
          <div className="row">
            <button type="button" className="danger" autoFocus onClick={go}>Replace and retry</button>
            <button type="button" onClick={() => setConfirming(false)}>Keep this answer</button>
          </div>
        </div>
      )}
    </>
  );
}

/** splitError parses a stored error: its first paragraph is for the person, the rest is the technical detail. */
export function splitError(error: string): { plain: string; detail: string } {
  const at = error.indexOf('\n\n');
  return at < 0 ? { plain: error, detail: '' } : { plain: error.slice(0, at), detail: error.slice(at + 2) };
}

/**
 * STOPPED_UNFINISHED is what an answer stored unfinished with no error says: the app (or the
 * `switchboard chat` run) ended while it streamed — closed, killed or crashed — so its words so
 * far were kept, but nothing marked why it ends there.
 */
export const STOPPED_UNFINISHED = 'Switchboard stopped before the model finished this answer (it was closed or crashed); what arrived is kept.';

/** AnswerError says why an answer failed or broke off in plain words, the detail behind a disclosure, and offers Retry. */
export function AnswerError({ m, last }: { m: Message; last: boolean }) {
  const running = useChat((s) => !!s.running[s.current]);
  if (m.status !== 'error' && m.status !== 'incomplete') return null;
  // An unfinished answer with no error is one the app stopped in; while a turn runs it may be
  // the one streaming (a window reloaded mid-turn), so it is said only once nothing runs.
  if (!m.error && (m.status !== 'incomplete' || running)) return null;
  const { plain, detail } = splitError(m.error || STOPPED_UNFINISHED);
  return (
    <div className={`answer-error ${m.status === 'error' ? 'bad' : 'warn'}`} role={m.status === 'error' ? 'alert' : undefined}>
      <p>{m.status === 'incomplete' && !detail ? `The answer was cut off: ${plain}` : plain}</p>
      {detail && (
        <details>
          <summary>Technical details</summary>
          <pre>{detail}</pre>
        </details>
      )}
      {last && !running && <RetryButton />}
    </div>
  );
}

/**
 * UserMessageBody is a user message's text, or, while it is being edited, the editor: Enter
 * (or Resend) sends the new text, Esc (or Cancel) keeps the message as it was. Resending an
 * earlier message deletes the later messages of the chat, so it asks first.
 */
export function UserMessageBody({ m }: { m: Message }) {
  const editing = useChat((s) => s.editing === m.id);
  if (!editing) return <p className="user-text">{m.text}</p>;
  return <MessageEditor m={m} />;
}

function MessageEditor({ m }: { m: Message }) {
  const messages = useChat((s) => s.messages);
  const [text, setText] = useState(m.text);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  const i = messages.findIndex((x) => x.id === m.id);
  const after = i < 0 ? [] : messages.slice(i + 1);
  // Only the message's own answer follows: resending replaces it, as Retry would, without asking,
  // unless it has tool cards (they go; what the tools did stays: say so, as Retry does).
  const calls = replacedCalls(messages, i + 1);
  const mustConfirm = after.some((x) => x.role === 'user') || calls > 0;
  const send = async (confirmed: boolean) => {
    if (!text.trim() || busy) return;
    if (mustConfirm && !confirmed) {
      setConfirming(true);
      return;
    }
    setBusy(true);
    const ok = await resend(m.id, text);
    if (!ok) setBusy(false);
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      if (confirming) setConfirming(false);
      else cancelEdit();
    } else if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send(false);
    }
  };
  return (
    <form className="message-edit" onSubmit={(e) => { e.preventDefault(); void send(false); }}>
      <textarea ref={box} aria-label="Edit message" rows={Math.min(8, Math.max(2, text.split('\n').length))} value={text}
        onChange={(e) => { setText(e.target.value); setConfirming(false); }} onKeyDown={onKey} disabled={busy} />
      {confirming ? (
        <div className="confirm-resend" role="alertdialog" aria-label="Replace the later messages?">
          <p>
            Resending replaces the {after.length} later message{after.length === 1 ? '' : 's'} of this chat with a new answer. They are deleted.
            {calls > 0 && <> {stayDone(calls).replace(/^Its/, 'Their')}</>}
          </p>
          <div className="row">
            <button type="button" className="danger" autoFocus onClick={() => void send(true)} disabled={busy}>Replace and resend</button>
            <button type="button" onClick={() => { setConfirming(false); box.current?.focus(); }}>Keep editing</button>
          </div>
        </div>
      ) : (
        <div className="row">
          <button type="submit" className="primary" disabled={!text.trim() || busy}>Resend</button>
          <button type="button" onClick={cancelEdit}>Cancel</button>
          <span className="small muted">Enter resends · Esc cancels</span>
        </div>
      )}
    </form>
  );
}
