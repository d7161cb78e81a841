import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { defaultRangeExtractor, useVirtualizer } from '@tanstack/react-virtual';
import {
  chatState, clearError, jumped, lastUserMessage, listed, loadChats, loadNewer, loadOlder, newChat, openChat, remove, rename, retryNow, searchChats, send, startEdit, stop, toLatest, useChat,
  type Chat, type Message,
} from '../../chat';
import { useAgents } from '../../agents';
import { ApprovalCard } from '../../components/ApprovalCard';
import { NoticeCard } from './NoticeCard';
import { ChatHeader } from './ChatHeader';
import { ElicitForm } from '../../components/ElicitForm';
import { Markdown } from './Markdown';
import { ToolCallCard } from './ToolCallCard';
import { AnswerError, MessageActions, UserMessageBody } from './MessageActions';
import { Icon } from '../../components/Icon';
import {
  AttachMenu, expandPrompt, matchPrompts, PromptArgs, SlashMenu, usePrompts, withAttachments, type Attachment, type PromptView,
} from './ComposerExtras';
import { message } from '../../errors';
import { ariaKeys, withShortcut } from '../../shortcuts';
import { hasBackend } from '../../backend';
import { hasApp } from '../../mcpapps/toolApps';
import { snippetParts } from '../../knowledge';
import { useNarrow } from '../../layout';
import { firstClick, useDismiss } from '../../dismiss';
import { useLocalModel, waitingLabel } from '../../localmodel';

/** ChatPage: the chat list, the open conversation with tool cards and approvals, and the composer. */
export function ChatPage() {
  const current = useChat((s) => s.current);
  const error = useChat((s) => s.error);
  useEffect(() => {
    void loadChats();
  }, []);
  // A narrow window has the chat list in the shell's drawer (App), under the navigation.
  const narrow = useNarrow();
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  useEffect(() => { setSlot(document.getElementById('drawer-slot')); }, []);
  return (
    <section className="page chat-page" aria-labelledby="page-title">
      <h1 id="page-title" className="visually-hidden">Chat</h1>
      <div className="chat-layout">
        {narrow && slot ? createPortal(<ChatList />, slot) : <ChatList />}
        <div className="chat-main">
          {error && (
            <div className="alert" role="alert">
              {error} <button type="button" className="link" onClick={clearError}>Dismiss</button>
            </div>
          )}
          {current ? <ChatHeader chatId={current} /> : null}
          <Messages />
          <Requests />
          <Composer />
        </div>
      </div>
    </section>
  );
}

function ChatList() {
  const all = useChat((s) => s.chats);
  const current = useChat((s) => s.current);
  const shown = useChat((s) => s.messages.length);
  const running = useChat((s) => s.running);
  const approvals = useChat((s) => s.approvals);
  const elicits = useChat((s) => s.elicits);
  // Chats never used are not listed, the open one excepted (see isDraft).
  const chats = useMemo(() => listed({ chats: all, current, running, approvals, elicits, messages: { length: shown } }), [all, current, running, approvals, elicits, shown]);
  const hits = useChat((s) => s.hits);
  const { agents } = useAgents();
  const [q, setQ] = useState('');
  useEffect(() => {
    const t = setTimeout(() => void searchChats(q), 200);
    return () => clearTimeout(t);
  }, [q]);
  return (
    <nav className="chat-list" aria-label="Chats">
      <button type="button" className="primary" onClick={() => void newChat()} disabled={!hasBackend()}
        title={withShortcut('New chat', 'newChat')} aria-keyshortcuts={ariaKeys('newChat')}>New chat</button>
      {agents.length > 0 && (
        <select aria-label="New chat from an agent" value="" onChange={(e) => { if (e.target.value) void newChat(e.target.value); }}>
          <option value="">New chat with an agent…</option>
          {agents.map((a) => <option key={a.id} value={a.id}>{a.name}</option>)}
        </select>
      )}
      <input type="search" aria-label="Search chats" placeholder="Search chats" value={q} onChange={(e) => setQ(e.target.value)} />
      {hits ? (
        <ul aria-label="Search results">
          {hits.map((h) => (
            <li key={h.chatId + h.messageId}>
              <button type="button" onClick={() => void openChat(h.chatId, { at: h.messageId })}>
                <strong>{h.title}</strong>
                <span className="small muted snippet">{snippetNodes(h.snippet)}</span>
              </button>
            </li>
          ))}
          {hits.length === 0 && <li className="muted small">No chat matches. Try other words, or clear the search to see every chat.</li>}
        </ul>
      ) : (
        <ul>
          {chats.map((c) => <ChatItem key={c.id} chat={c} selected={c.id === current} agent={agents.find((a) => a.id === c.agent)?.name} />)}
          {chats.length === 0 && <li className="muted small">No chats yet. Type a message to start one, or press New chat.</li>}
        </ul>
      )}
    </nav>
  );
}

/** snippetNodes renders the <mark>ed parts of a search snippet as text, never as HTML. */
function snippetNodes(s: string) {
  return snippetParts(s).map((p, i) => (p.mark ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>));
}

/** ChatItem is one chat in the list: its title, and the agent it started from (chats of one agent are told apart by their titles). */
function ChatItem({ chat, selected, agent }: { chat: Chat; selected: boolean; agent?: string }) {
  const answering = useChat((s) => !!s.running[chat.id]);
  const asking = useChat((s) => s.approvals.some((a) => a.chatId === chat.id) || s.elicits.some((e) => e.chatId === chat.id));
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const [title, setTitle] = useState(chat.title);
  const name = chat.title || 'Untitled chat';
  if (editing) {
    return (
      <li>
        <form onSubmit={(e) => { e.preventDefault(); setEditing(false); void rename(chat.id, title); }}>
          <input aria-label="Chat title" autoFocus value={title} onChange={(e) => setTitle(e.target.value)}
            onKeyDown={(e) => { if (e.key === 'Escape') setEditing(false); }} />
        </form>
      </li>
    );
  }
  return (
    <li className={selected ? 'selected' : ''}>
      <button type="button" aria-current={selected} title={name} onClick={() => void openChat(chat.id)} onDoubleClick={() => setEditing(true)}>
        <span className="chat-item-head">
          <span className="chat-item-title">{name}</span>
          <ChatMark answering={answering} asking={asking} />
        </span>
        {agent && <span className="chat-item-agent small muted" title={`Started from the agent ${agent}`}>{agent}</span>}
      </button>
      {selected && <ChatItemActions id={chat.id} name={name} confirm={confirm} setConfirm={setConfirm} onRename={() => setEditing(true)} />}
    </li>
  );
}

/**
 * ChatMark marks a chat of the list that is at work out of view: a pulsing dot while it answers,
 * a "?" while it waits for the user (an approval or a server's form). What it means is part of
 * the item's name ("Plan the trip, answering"), so a screen reader hears it.
 */
function ChatMark({ answering, asking }: { answering: boolean; asking: boolean }) {
  if (!asking && !answering) return null;
  return (
    <>
      {asking ? <span className="chat-state asking" aria-hidden="true" title="Waiting for your answer">?</span>
        : <span className="chat-state answering" aria-hidden="true" title="Answering…" />}
      <span className="visually-hidden">{asking ? ', waiting for your answer' : ', answering'}</span>
    </>
  );
}

/**
 * ChatItemActions are the open chat's Rename and Delete. Delete asks first,
 * on a line of its own below them with Keep first and focused: a
 * double-click or Enter-Enter on Delete does not delete; Esc keeps the chat.
 */
function ChatItemActions({ id, name, confirm, setConfirm, onRename }: {
  id: string; name: string; confirm: boolean; setConfirm: (v: boolean) => void; onRename: () => void;
}) {
  const ask = useRef<HTMLButtonElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const box = useRef<HTMLDivElement>(null);
  useDismiss(confirm, () => setConfirm(false), { panel: box, opener: ask, initial: keep });
  return (
    <>
      <span className="row small">
        <button type="button" className="link small" onClick={onRename}>Rename</button>
        <button type="button" ref={ask} className="link small" onClick={() => setConfirm(true)} aria-expanded={confirm}>Delete</button>
      </span>
      {confirm && (
        <div className="chat-delete-confirm small" role="alertdialog" aria-label={`Delete ${name}?`} ref={box}>
          <span>Delete this chat and its messages?</span>
          <span className="row">
            <button type="button" ref={keep} className="small" onClick={() => setConfirm(false)}>Keep</button>
            <button type="button" className="danger small" onClick={firstClick(() => void remove(id))}>Delete</button>
          </span>
        </div>
      )}
    </>
  );
}

/**
 * VIRTUAL_FROM is how many loaded messages make the list render only those near the viewport;
 * a chat longer than its first page does so from the start. Shorter chats render as they are.
 */
export const VIRTUAL_FROM = 60;
/** NEAR_TOP is how close to the top (px) scrolling loads the older page. */
const NEAR_TOP = 400;
/** PIN_FRAMES is for how many frames the message that was on top is held in place after an older page came in. */
const PIN_FRAMES = 12;

/** MARK_MS is how long a search hit's message stays marked after the chat opened at it. */
export const MARK_MS = 2500;

/**
 * Messages shows the open chat from its end, or from a search hit (marked for a moment). Older
 * pages load as the user scrolls up, the message that was on top staying where it was, and,
 * opened at a hit, newer ones as the user scrolls down; a long chat has only the messages near
 * the viewport in the DOM (see VIRTUAL_FROM). It follows the end while a reply streams unless the
 * user scrolled away; more than a screen from the end, a round ↓ button goes back to it.
 */
function Messages() {
  const current = useChat((s) => s.current);
  const messages = useChat((s) => s.messages);
  const hasMore = useChat((s) => s.hasMore);
  const loadingOlder = useChat((s) => s.loadingOlder);
  const hasNewer = useChat((s) => s.hasNewer);
  const loadingNewer = useChat((s) => s.loadingNewer);
  const jump = useChat((s) => s.jump);
  const scroller = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  const stuck = useRef(true); // following the end
  const endAsked = useRef(false); // ↓ pressed on a chat opened at a hit: follow the end once it is loaded
  const lastTop = useRef(0); // the scroll offset at the last scroll event
  // More came below while the user was scrolled up: the "new ↓" pill shows.
  const [below, setBelow] = useState(false);
  // The view is more than a screen from the end: the ↓ button shows.
  const [far, setFar] = useState(false);
  const [marked, setMarked] = useState('');
  const grew = useRef('');
  const hadNewer = useRef(false); // the end grew from a newer page, not from a reply: no pill
  // The first message, where it was in the content and the scroll offset, as of the last frame.
  const last = useRef({ first: '', firstTop: 0, top: 0 });
  const n = messages.length;
  // A chat just opened, or the user just sent: follow the end (decided before layout). A question
  // another process ('switchboard chat') asked in this chat is new below, like its answer: the
  // view stays where the user is reading.
  const answering = useChat((s) => !!s.running[s.current]);
  const lastMsg = messages[n - 1];
  const seen = useRef({ chat: '', lastId: '' });
  if (seen.current.chat !== current || (lastMsg && lastMsg.id !== seen.current.lastId && lastMsg.role === 'user' && answering)) stuck.current = true;
  // Opened at a search hit: the hit is shown, not the end (which is not loaded yet).
  if (jump || hasNewer) stuck.current = false;
  else if (endAsked.current) stuck.current = true;
  if (!hasNewer) endAsked.current = false;
  seen.current = { chat: current, lastId: lastMsg?.id ?? '' };
  const virtual = hasMore || n >= VIRTUAL_FROM;
  const v = useVirtualizer({
    count: virtual ? messages.length : 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => 140,
    overscan: 6,
    gap: 12,
    getItemKey: (i) => messages[i]?.id ?? i,
    // A message whose tool card shows an MCP App stays rendered out of view: unmounting would
    // drop the app's frame without ui/resource-teardown (and lose its state on the way back).
    rangeExtractor: (range) => {
      const rows = defaultRangeExtractor(range);
      const keep = messages.flatMap((m, i) => (m.toolCalls.some((c) => hasApp(c.name)) && !rows.includes(i) ? [i] : []));
      return keep.length > 0 ? [...rows, ...keep].sort((a, b) => a - b) : rows;
    },
  });
  // While following the end, lay out the end at once rather than the top first (until the scroll
  // offset the list reports catches up, the virtualizer would render the rows at the old offset).
  if (virtual && stuck.current) v.scrollOffset = Number.MAX_SAFE_INTEGER;
  const items = v.getVirtualItems();

  /** toBottom shows the end, and remembers where that is (the browser clamps the offset). */
  const toBottom = (el: HTMLDivElement) => {
    el.scrollTop = el.scrollHeight;
    lastTop.current = el.scrollTop;
  };

  const unpin = useRef(() => {});
  /** pin keeps message id at y px below the list's top for PIN_FRAMES frames, or until the user scrolls. */
  const pin = (el: HTMLDivElement, id: string, y: number) => {
    unpin.current();
    let frames = PIN_FRAMES;
    let raf = 0;
    const stop = () => {
      cancelAnimationFrame(raf);
      delete el.dataset.pinned;
      el.removeEventListener('wheel', stop);
      el.removeEventListener('touchstart', stop);
      el.removeEventListener('keydown', stop);
    };
    unpin.current = stop;
    el.dataset.pinned = id; // for tests: the list is still settling
    const step = () => {
      const a = el.querySelector(`[data-mid="${CSS.escape(id)}"]`);
      if (a) {
        const dy = a.getBoundingClientRect().top - el.getBoundingClientRect().top - y;
        if (Math.abs(dy) >= 1) {
          el.scrollTop += dy;
          v.scrollOffset = lastTop.current = el.scrollTop; // read back: the browser clamps it
        }
      }
      if (--frames > 0) raf = requestAnimationFrame(step);
      else stop();
    };
    el.addEventListener('wheel', stop, { passive: true });
    el.addEventListener('touchstart', stop, { passive: true });
    el.addEventListener('keydown', stop);
    raf = requestAnimationFrame(step);
  };
  useEffect(() => () => unpin.current(), []);

  /** topOf is where message i starts, in the scroller's content. */
  const topOf = (i: number): number | undefined => {
    const el = scroller.current;
    if (!el) return undefined;
    if (virtual) {
      const start = v.measurementsCache[i]?.start;
      return start === undefined ? undefined : (inner.current?.offsetTop ?? 0) + start;
    }
    return (el.querySelector(`[data-mid="${CSS.escape(messages[i]?.id ?? '')}"]`) as HTMLElement | null)?.offsetTop;
  };

  /** gap is how far (px) the view is from the end. */
  const gap = (el: HTMLDivElement) => el.scrollHeight - el.scrollTop - el.clientHeight;

  // A chat opened at a search hit: bring the hit into sight (before the effect below reads the
  // offset) and mark it for a moment.
  useLayoutEffect(() => {
    const el = scroller.current;
    const i = jump ? messages.findIndex((m) => m.id === jump) : -1;
    if (!el || i < 0) return;
    // A third down the view, where one reads; held there while the rows around it are measured.
    const y = Math.round(el.clientHeight / 3);
    const top = topOf(i);
    if (top !== undefined) el.scrollTop = Math.max(0, top - y);
    lastTop.current = el.scrollTop;
    if (virtual) v.scrollOffset = el.scrollTop;
    pin(el, jump, y);
    setMarked(jump);
    jumped();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [jump, messages, virtual]);
  useEffect(() => {
    if (!marked) return;
    const t = setTimeout(() => setMarked(''), MARK_MS);
    return () => clearTimeout(t);
  }, [marked]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const first = messages[0]?.id ?? '';
    const prev = last.current;
    // (Not when the chat opened at a search hit: the hit is where the view goes.)
    const was = !jump && prev.first && first !== prev.first ? messages.findIndex((m) => m.id === prev.first) : -1;
    if (was > 0) {
      // Older messages were put before: keep the one that was first where it was — at once from
      // the laid-out (or, virtualised, estimated) offsets, then for a few frames from where it
      // really is, as the rows around it are measured.
      const top = topOf(was);
      if (top !== undefined) el.scrollTop = top - prev.firstTop + prev.top;
      lastTop.current = el.scrollTop;
      pin(el, prev.first, prev.firstTop - prev.top);
    } else if (stuck.current) {
      toBottom(el);
    }
    // The end changed (a new message, more text, a tool card) out of view: say so.
    const end = messages[n - 1];
    const sign = end ? `${end.id}:${end.text.length}:${end.toolCalls.length}:${end.status}` : '';
    if (grew.current && sign !== grew.current && !stuck.current && was <= 0 && !hadNewer.current) setBelow(true);
    else if (stuck.current) setBelow(false);
    grew.current = sign;
    hadNewer.current = hasNewer;
    setFar(hasNewer || gap(el) > el.clientHeight);
    // Tell the virtualizer at once (its scroll event comes later): it keeps rows above the
    // view in place as they are measured only when it knows where the view is.
    if (virtual) v.scrollOffset = el.scrollTop;
    last.current = { first, firstTop: topOf(0) ?? 0, top: el.scrollTop };
    if (hasMore && el.scrollTop < NEAR_TOP && !stuck.current) void loadOlder();
    if (hasNewer && gap(el) < NEAR_TOP && !jump) void loadNewer();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [messages, virtual, hasNewer]);

  // Measured heights change after render (Markdown, images, app cards, a tool card opening), and the
  // list itself shrinks when an approval card or form appears below it: keep following the end.
  // Unvirtualised, the list's own box does not grow with its content, so each message is watched.
  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => {
      if (stuck.current) toBottom(el);
    });
    ro.observe(el);
    if (inner.current) ro.observe(inner.current);
    else for (const c of Array.from(el.children)) ro.observe(c);
    return () => ro.disconnect();
  }, [virtual, messages]); // a message re-rendered as stored (after the turn) is a new element to watch

  const toEnd = () => {
    const el = scroller.current;
    if (!el) return;
    if (hasNewer) {
      // The end is not loaded: load it, then follow it.
      endAsked.current = true;
      void toLatest();
      return;
    }
    stuck.current = true;
    toBottom(el);
    setBelow(false);
    setFar(false);
  };

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    // Only the user moving the view up stops the following. Content that grew since the last
    // frame also leaves the end out of view, and a scroll event dispatched before the layout
    // effect or the resize observer catches up must not be read as the user scrolling away.
    if (gap(el) < 40 && !hasNewer) stuck.current = true;
    else if (el.scrollTop < lastTop.current - 1) stuck.current = false;
    lastTop.current = el.scrollTop;
    if (stuck.current) setBelow(false);
    setFar(hasNewer || gap(el) > el.clientHeight);
    last.current = { first: messages[0]?.id ?? '', firstTop: topOf(0) ?? 0, top: el.scrollTop };
    if (hasMore && el.scrollTop < NEAR_TOP) void loadOlder();
    if (hasNewer && gap(el) < NEAR_TOP) void loadNewer();
  };

  // Home and End jump at once: a smooth scroll across rows measured on the way would stop short.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const el = scroller.current;
    if (!el || (e.key !== 'Home' && e.key !== 'End') || e.target !== el) return;
    e.preventDefault();
    stuck.current = e.key === 'End';
    el.scrollTop = e.key === 'End' ? el.scrollHeight : 0;
  };

  if (messages.length === 0) {
    return (
      <div className="chat-empty muted">
        <p>Ask anything. The model can use the tools of your servers; tool calls show up as cards, and risky ones ask you first.</p>
        <p className="small">Enter sends · Shift+Enter new line · Esc stops · ↑ edits your last message</p>
      </div>
    );
  }
  const older = hasMore && (
    <div className="older small muted" role="status">
      {loadingOlder ? 'Loading earlier messages…' : <button type="button" className="link small" onClick={() => void loadOlder()}>Load earlier messages</button>}
    </div>
  );
  const newer = hasNewer && (
    <div className="older small muted" role="status">
      {loadingNewer ? 'Loading later messages…' : <button type="button" className="link small" onClick={() => void loadNewer()}>Load later messages</button>}
    </div>
  );
  // The chat's last message, when it is shown (Retry, Edit and the rest act on it).
  const isLast = (i: number) => i === n - 1 && !hasNewer;
  const down = below ? (
    <button type="button" className="new-below" onClick={toEnd} aria-label="New messages below: scroll to the end">New ↓</button>
  ) : far && (
    <button type="button" className="new-below latest" onClick={toEnd} aria-label="Jump to the latest message" title="Jump to the latest message">↓</button>
  );
  if (!virtual) {
    return (
      <div className="messages" ref={scroller} onScroll={onScroll} aria-live="polite" aria-label="Messages" aria-busy={loadingOlder || loadingNewer}>
        {older}
        {messages.map((m, i) => <MessageView key={m.id} m={m} last={isLast(i)} marked={m.id === marked} />)}
        {newer}
        <Sending />
        <TurnNotice />
        {down}
      </div>
    );
  }
  // Rows come and go as the list scrolls, so the list itself is not live; a reply that streamed in
  // (seq 0 until the chat is reloaded) is announced instead.
  const announce = lastMsg && lastMsg.seq === 0 && lastMsg.role === 'assistant' && lastMsg.status !== 'streaming' ? lastMsg.text.slice(0, 300) : '';
  return (
    <div className="messages virtual" ref={scroller} onScroll={onScroll} onKeyDown={onKeyDown} aria-label="Messages" aria-busy={loadingOlder || loadingNewer} tabIndex={0}>
      {older}
      <div ref={inner} className="virtual-list" style={{ height: v.getTotalSize() }}>
        {items.map((it) => (
          <div key={it.key} data-index={it.index} ref={v.measureElement} className="virtual-row" style={{ transform: `translateY(${it.start}px)` }}>
            <MessageView m={messages[it.index]!} last={isLast(it.index)} marked={messages[it.index]!.id === marked} />
          </div>
        ))}
      </div>
      {newer}
      <Sending />
      <TurnNotice />
      {down}
      <div className="visually-hidden" aria-live="polite">{announce}</div>
    </div>
  );
}

/**
 * MessageView is memoised: a streamed delta replaces only the message it
 * belongs to (applyEvent keeps the others as they were), so the earlier
 * messages, their Markdown and highlighted code, are not rendered again on
 * every delta; without it each turn cost more the longer the chat was.
 */
const MessageView = memo(function MessageView({ m, last, marked = false }: { m: Message; last: boolean; marked?: boolean }) {
  return (
    <article className={`message ${m.role}${last ? ' last' : ''}${marked ? ' found' : ''}`} data-testid={`message-${m.role}`} data-status={m.status} data-mid={m.id} data-seq={m.seq}>
      {m.role === 'user' ? <UserMessageBody m={m} /> : m.role === 'summary' ? <SummaryBody m={m} /> : <Markdown text={m.text} streaming={m.status === 'streaming'} />}
      {m.toolCalls.length > 0 && (
        <div className="tool-cards">{m.toolCalls.map((c) => <ToolCallCard key={c.index} call={c} />)}</div>
      )}
      {m.role === 'assistant' && m.status === 'streaming' && !m.text && m.toolCalls.length === 0 && <Waiting />}
      <AnswerError m={m} last={last} />
      {m.status === 'cancelled' && <div className="small muted">Stopped.</div>}
      {m.status === 'complete' && m.error && <div className="small warn">{m.error}</div>}
      {(m.inputTokens > 0 || m.outputTokens > 0) && (
        <div className="small muted usage">{m.inputTokens} in · {m.outputTokens} out tokens</div>
      )}
      <MessageActions m={m} last={last} />
    </article>
  );
});

/**
 * TurnNotice is the open chat's notice under its messages: a rate limit's wait, counting down to
 * the provider being asked again (in the warning colour: nothing is wrong yet, but the answer
 * waits), with Retry now to ask at once, or a step-limit or context note. The countdown is not
 * read out each second: a screen reader hears the wait once.
 */
export function TurnNotice() {
  const notice = useChat((s) => s.notice);
  const retry = useChat((s) => s.retry);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!retry) return;
    const tick = () => setNow(Date.now());
    const t = setInterval(tick, 250);
    tick();
    return () => clearInterval(t);
  }, [retry]);
  if (retry) {
    const left = Math.max(0, Math.ceil((retry.until - now) / 1000));
    return (
      <div className="notice-card small retry-wait" role="status">
        <span aria-hidden="true">{left > 0 ? `The provider is rate-limited; retrying in ${left} s…` : 'The provider is rate-limited; retrying now…'}</span>
        <span className="visually-hidden">{`The provider is rate-limited; retrying in ${retry.seconds} seconds.`}</span>
        {left > 0 && <button type="button" onClick={() => void retryNow()}>Retry now</button>}
      </div>
    );
  }
  return notice ? <div className="notice" role="status">{notice}</div> : null;
}

/**
 * Sending is the open chat's message sent and not stored yet, while the chat's earlier messages
 * are summarised first: the summary goes before it, so the message reaches the model whole.
 */
export function Sending() {
  const text = useChat((s) => s.sending[s.current]);
  const compacting = useChat((s) => !!s.meters[s.current]?.compacting);
  const shown = text !== undefined && compacting;
  const box = useRef<HTMLElement>(null);
  // It comes below the messages, where the list's own following does not look: the person
  // just sent it, so it is brought into view.
  useEffect(() => {
    if (shown) box.current?.scrollIntoView?.({ block: 'end' });
  }, [shown]);
  if (!shown) return null;
  return (
    <article ref={box} className="message user sending" data-testid="message-sending" aria-busy="true">
      <p className="user-text">{text}</p>
      <p className="small muted" role="status">Summarising the earlier messages first: your message goes to the model after the summary.</p>
    </article>
  );
}

/** Waiting is an answer not begun: "…", or that the model on this computer is loading. */
function Waiting() {
  const label = waitingLabel(useLocalModel());
  return label ? <span className="typing muted" role="status">{label}</span> : <span className="typing" aria-label="The model is answering">…</span>;
}

/** SummaryBody is a compaction's summary: collapsed, it says what happened; open, what the model reads instead of the messages above. */
function SummaryBody({ m }: { m: Message }) {
  return (
    <details className="summary-message">
      <summary>
        <strong>Earlier messages summarised</strong>{' '}
        <span className="muted small">
          {m.asked ? 'You asked to compact the chat (Compact now)' : "The chat neared the model's context window"}: from here the model reads this summary instead of the messages above, which stay in the chat and its exports.
        </span>
      </summary>
      <Markdown text={m.text} />
    </details>
  );
}

function Requests() {
  const current = useChat((s) => s.current);
  const approvals = useChat((s) => s.approvals);
  const elicits = useChat((s) => s.elicits);
  const notices = useChat((s) => s.notices);
  // Requests from servers no chat is calling are shown in every chat.
  const mine = approvals.filter((a) => !a.chatId || a.chatId === current);
  const forms = elicits.filter((e) => !e.chatId || e.chatId === current);
  const told = notices.filter((n) => !n.chatId || n.chatId === current);
  if (mine.length === 0 && forms.length === 0 && told.length === 0) return null;
  return (
    <div className="requests">
      {told.map((n) => <NoticeCard key={n.id} n={n} />)}
      {mine.map((a) => <ApprovalCard key={a.id} req={a} />)}
      {forms.map((e) => <ElicitForm key={e.id} req={e} />)}
    </div>
  );
}

function Composer() {
  const current = useChat((s) => s.current);
  const running = useChat((s) => !!s.running[s.current]);
  const editing = useChat((s) => s.editing);
  const focus = useChat((s) => s.focus);
  const [text, setText] = useState('');
  const [atts, setAtts] = useState<Attachment[]>([]);
  const [sel, setSel] = useState(0);
  const [argsFor, setArgsFor] = useState<PromptView | null>(null);
  const [err, setErr] = useState('');
  const box = useRef<HTMLTextAreaElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const prompts = usePrompts(text.startsWith('/'));
  const matches = matchPrompts(prompts, text);
  useEffect(() => {
    // A chat opened (or back from an edit) puts the cursor in the message box, unless the
    // user is already at work in the composer: a chat "New chat" made arrives after the
    // user typed a slash command and moved into its arguments form.
    if (!editing && !wrap.current?.contains(document.activeElement)) box.current?.focus();
  }, [current, editing]);
  // New chat on a chat still empty makes no other: it puts the cursor here.
  useEffect(() => {
    if (focus) box.current?.focus();
  }, [focus]);
  const submit = async () => {
    if (!text.trim() || running) return;
    const t = text;
    const a = atts;
    setText('');
    setAtts([]);
    if (!(await send(withAttachments(t, a)))) {
      setText(t);
      setAtts(a);
    }
  };
  const pick = async (p: PromptView) => {
    setSel(0);
    try {
      const expanded = await expandPrompt(p);
      if (expanded === null) setArgsFor(p);
      else setText(expanded);
    } catch (e) {
      setErr(message(e));
    }
    box.current?.focus();
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (matches.length > 0 && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      e.preventDefault();
      setSel((sel + (e.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
    } else if (matches.length > 0 && (e.key === 'Tab' || (e.key === 'Enter' && !e.shiftKey))) {
      e.preventDefault();
      void pick(matches[Math.min(sel, matches.length - 1)]!);
    } else if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    } else if (e.key === 'Escape' && running) {
      e.preventDefault();
      void stop();
    } else if (e.key === 'ArrowUp' && !text && !running && !chatState().hasNewer) {
      const u = lastUserMessage(chatState().messages);
      if (u) {
        e.preventDefault();
        startEdit(u.id);
      }
    }
  };
  return (
    <div className="composer-wrap" ref={wrap}>
      {argsFor && (
        <PromptArgs prompt={argsFor} onCancel={() => setArgsFor(null)} onText={(t) => { setText(t); setArgsFor(null); box.current?.focus(); }} />
      )}
      <SlashMenu items={matches} selected={Math.min(sel, matches.length - 1)} onPick={(p) => void pick(p)} />
      {err && <div className="alert small" role="alert">{err} <button type="button" className="link" onClick={() => setErr('')}>Dismiss</button></div>}
      {atts.length > 0 && (
        <ul className="attachments" aria-label="Attachments">
          {atts.map((a, i) => (
            <li key={a.uri} className="badge">
              {a.name}
              <button type="button" className="link small" aria-label={`Remove ${a.name}`} onClick={() => setAtts(atts.filter((_, j) => j !== i))}>×</button>
            </li>
          ))}
        </ul>
      )}
      <form className="composer" onSubmit={(e) => { e.preventDefault(); void submit(); }}>
        <AttachMenu onAttach={(a) => setAtts([...atts.filter((x) => x.uri !== a.uri), a])} onError={setErr} />
        <textarea ref={box} aria-label="Message" rows={3} placeholder="Message the model… (/ for the servers' prompts)" value={text}
          onChange={(e) => { setText(e.target.value); setSel(0); }} onKeyDown={onKey} disabled={!hasBackend()} />
        {running && (
          <button type="button" className="danger" onClick={() => void stop()} aria-label="Stop the answer" title="Stop (Esc)">
            <Icon name="stop" /> Stop
          </button>
        )}
        <button type="submit" className="primary" disabled={!text.trim() || running}>Send</button>
      </form>
    </div>
  );
}
