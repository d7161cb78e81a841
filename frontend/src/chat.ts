// Chat state: the chat list, the open chat's messages (live from "chat:event"),
// and the questions servers or tools put to the user (approvals, forms).
// Components read it with useChat; it changes only through the actions below.
import { AnswerApproval, AnswerElicitation, call, Chat as GetChat, ChatMessagesAround, ChatMessagesPage, CompactChat, Chats, DeleteChat, EditMessage, EventApproval, EventChat, EventChatsChanged, EventElicit, EventNotice, EventRequestDone, hasBackend, hasMethod, hasRuntime, NewAgentChat, NewChat, on, PendingRequests, RenameChat, RetryAnswer, RetryNow, RunningChats, SearchChats, SendMessage, StopChat } from './backend';
import type { gui, host } from './backend';
import { tearDownApps } from './mcpapps/onScreen';
import { Orderer } from './orderer';
import { message as errorMessage, sentence } from './errors';
import { createStore, useSelect } from './store';

export type Chat = host.ChatView;
export type Message = host.MessageView;
/** CallProgress is how far a running call is, as its server last reported it (a progress event). */
export type CallProgress = gui.ProgressView;
/** ToolCall is a call stored in a message or streaming in; a delegated call holds its sub-agent's steps; a running one, its progress. */
export type ToolCall = host.ToolCallView & { progress?: CallProgress };
export type CallResult = host.CallResult;
export type Approval = gui.ApprovalView;
export type Elicit = gui.ElicitView;
/** Notice is something Switchboard refused or held back for the user (a server's sampling request, an app's text for the model); count says how often it came. */
export type Notice = gui.Notice & { count: number };
export type SearchHit = host.ChatHit;
export type ChatEvent = gui.ChatEvent;
export type MessagePage = host.MessagePageView;

/** FIRST_PAGE is how many messages a chat opens with: a few screens, so it opens as fast as a short chat. */
export const FIRST_PAGE = 30;
/** PAGE is how many messages each scroll to the top adds, and a reload after a turn reads. */
export const PAGE = 50;

export interface ChatState {
  chats: Chat[];
  current: string;
  messages: Message[];
  hasMore: boolean; // the open chat has messages older than messages[0]
  loadingOlder: boolean;
  /** hasNewer: the open chat has messages after the last one shown (it was opened at a search hit). */
  hasNewer: boolean;
  loadingNewer: boolean;
  /** jump is the message the view brings into sight and marks (a search hit), '' when none. */
  jump: string;
  /** focus asks the composer to take the focus when it changes (New chat on a chat still empty). */
  focus: number;
  running: Record<string, boolean>;
  notice: string; // step-limit or context notice of the open chat
  /** retry is the open chat's wait after a rate limit: when (Date.now() ms) the provider is asked again, and how long it said (s); null when not waiting. */
  retry: RetryWait | null;
  approvals: Approval[];
  elicits: Elicit[];
  notices: Notice[];
  error: string;
  hits: SearchHit[] | null;
  editing: string; // the id of the user message being edited in place, '' when none
  /** meters: each chat's context meter, from its last context event (or ChatContext on open). */
  meters: Record<string, ContextMeter>;
  /**
   * sending: the text each chat was sent and does not show yet. A message that would take the
   * chat past its model's window is stored after the summary the chat needs first, which a
   * model may take a minute to write: till then the chat shows it as waiting.
   */
  sending: Record<string, string>;
}

export type ContextMeter = host.ChatContext;
export interface RetryWait { until: number; seconds: number }

const chatStore = createStore<ChatState>({
  chats: [], current: '', messages: [], hasMore: false, loadingOlder: false, hasNewer: false, loadingNewer: false, jump: '', focus: 0,
  running: {}, notice: '', retry: null, approvals: [], elicits: [], notices: [], error: '', hits: null, editing: '', meters: {}, sending: {},
});
const set = chatStore.set;

export function useChat<T>(select: (s: ChatState) => T): T {
  return useSelect(chatStore, select);
}

/** resultText joins the text parts of a tool result, or shows its structured content. */
export function resultText(r: CallResult | undefined): string {
  if (!r) return '';
  const text = r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
  return text || r.structured;
}

/** prettyJSON indents JSON text; text that is not JSON (a model's broken arguments) stays as it is. */
export function prettyJSON(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

/** blank is a call known only by its ID and place, until its fields stream in. */
function blank(id: string, index: number, status: string): ToolCall {
  return { id, index, name: '', server: '', tool: '', args: '', status, isError: false, error: '', durationMs: 0, approvalId: '' };
}

/** merge lays the fields an event set (not empty) over what is known of a call. */
function merge(base: ToolCall, c: ToolCall, skip = ''): ToolCall {
  return { ...base, ...Object.fromEntries(Object.entries(c).filter(([k, v]) => v !== undefined && v !== '' && k !== skip)) };
}

/** applyEvent folds one chat event into the open chat's messages (pure, for tests). */
export function applyEvent(messages: Message[], ev: ChatEvent): Message[] {
  const at = (id: string | undefined) => messages.findIndex((m) => m.id === id);
  const patch = (id: string | undefined, fn: (m: Message) => Message) => {
    const i = at(id);
    return i < 0 ? messages : messages.map((m, j) => (j === i ? fn(m) : m));
  };
  switch (ev.type) {
    case 'message': {
      const i = at(ev.messageId);
      // A retried or edited turn starts again from a user message already shown: what followed
      // it is gone (deleted from history), and an edit brings its new text.
      if (i >= 0 && ev.role === 'user') return [...messages.slice(0, i), { ...messages[i]!, text: ev.text ?? messages[i]!.text }];
      if (i >= 0) return messages;
      return [...messages, {
        id: ev.messageId ?? '', chatId: ev.chatId, seq: 0, role: ev.role ?? 'assistant', text: ev.text ?? '',
        status: ev.role === 'assistant' ? 'streaming' : 'complete', error: '', model: '', inputTokens: 0, outputTokens: 0, createdAt: '', toolCalls: [],
      }];
    }
    case 'text':
      return patch(ev.messageId, (m) => ({ ...m, text: m.text + (ev.text ?? '') }));
    case 'toolCall':
    case 'toolArgs':
    case 'progress': {
      if (!ev.call) return messages;
      // A progress event names its call and brings how far it is; the call's state comes from its own events.
      const call: ToolCall = ev.type === 'progress' ? { ...ev.call, status: '', progress: ev.progress } : ev.call;
      if (call.parent) return patch(ev.messageId, (m) => ({ ...m, toolCalls: nest(m.toolCalls, call) }));
      return patch(ev.messageId, (m) => {
        const c = call;
        const i = m.toolCalls.findIndex((t) => t.index === c.index);
        const base = m.toolCalls[i] ?? blank(c.id, c.index, 'streaming');
        const next = ev.type === 'toolArgs' ? { ...base, args: base.args + c.args } : merge(base, c);
        const calls = i >= 0 ? m.toolCalls.map((t, j) => (j === i ? next : t)) : [...m.toolCalls, next];
        return { ...m, toolCalls: calls };
      });
    }
    case 'messageEnd':
      return patch(ev.messageId, (m) => ({
        ...m, text: ev.text ?? m.text, status: ev.status ?? 'complete', error: ev.error ?? '',
        inputTokens: ev.usage?.inputTokens ?? m.inputTokens, outputTokens: ev.usage?.outputTokens ?? m.outputTokens,
      }));
    case 'stepLimit':
      return patch(ev.messageId, (m) => ({ ...m, error: ev.error ?? '' }));
    default:
      return messages;
  }
}

/** nest puts a sub-agent's call under its ask_<server> call, by call ID. */
function nest(calls: ToolCall[], c: ToolCall): ToolCall[] {
  return calls.map((p) => {
    if (p.id !== c.parent) return p;
    const steps = p.steps ?? [];
    const i = steps.findIndex((s) => s.id === c.id);
    const next = merge(steps[i] ?? blank(c.id, steps.length, 'running'), c, 'index');
    return { ...p, steps: i >= 0 ? steps.map((s, j) => (j === i ? next : s)) : [...steps, next] };
  });
}

/**
 * Streamed deltas (text and tool-argument pieces) are folded into the open chat once a frame, not
 * one render each: a fast model sends hundreds a second, and rendering each (its Markdown again)
 * kept the window busy long after the model finished, so Stop and Esc waited behind the stream.
 * Any other event first applies the deltas held before it, so the order stays the events' order.
 */
let held: ChatEvent[] = [];
let frame: (() => void) | null = null;

/** nextFrame runs fn before the next paint (or soon, where there are no frames: a hidden window, tests). */
function nextFrame(fn: () => void): () => void {
  if (typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' && document.visibilityState === 'visible') {
    const id = requestAnimationFrame(fn);
    return () => cancelAnimationFrame(id);
  }
  const id = setTimeout(fn, 16);
  return () => clearTimeout(id);
}

/** flushDeltas applies the deltas held since the last frame in one change of the store. */
export function flushDeltas(): void {
  frame?.();
  frame = null;
  const evs = held;
  held = [];
  const state = chatStore.get();
  // A chat opened at a search hit shows no end for the deltas to go to: they are read with the newer pages.
  const mine = state.hasNewer ? [] : evs.filter((e) => e.chatId === state.current);
  if (mine.length === 0) return;
  let messages = state.messages;
  for (const e of mine) messages = applyEvent(messages, e);
  const patch: Partial<ChatState> = { messages };
  if (mine.some((e) => e.type === 'text')) Object.assign(patch, { notice: '', retry: null });
  set(patch);
}

function onChatEvent(ev: ChatEvent) {
  if (ev.type === 'text' || ev.type === 'toolArgs') {
    held.push(ev);
    frame ??= nextFrame(flushDeltas);
    return;
  }
  flushDeltas();
  // The message sent is shown (or the turn ended without it): it waits no more.
  if ((ev.type === 'done' || (ev.type === 'message' && ev.role === 'user')) && ev.chatId in chatStore.get().sending) {
    set({ sending: omit(chatStore.get().sending, ev.chatId) });
  }
  if (ev.type === 'done') {
    for (const ended of asking) ended.add(ev.chatId);
    meterSeq.set(ev.chatId, ev.seq);
    const { running, meters } = chatStore.get();
    // A meter still "Summarising…" when the turn ended is stale (the
    // summary failed, or its last meter came too late): the meter asks
    // ChatContext again when it has none.
    const patch: Partial<ChatState> = { running: { ...running, [ev.chatId]: false } };
    if (ev.chatId === chatStore.get().current) patch.retry = null;
    if (meters[ev.chatId]?.compacting) patch.meters = omit(meters, ev.chatId);
    set(patch);
    void loadChats();
    // The stored conversation is the truth: it replaces what streamed in.
    if (ev.chatId === chatStore.get().current) void refreshChat(ev.chatId);
    return;
  }
  const state = chatStore.get();
  if (ev.type === 'context') {
    applyMeter(ev);
    // A refusal that stated the model's real window (below the one in use)
    // comes with the meter; the chat says so once.
    if (ev.error && ev.chatId === state.current) set({ notice: ev.error });
    return;
  }
  if (ev.chatId !== state.current) return;
  // The turn's messages go after the chat's end, which a chat opened at a search hit does not show yet.
  const patch: Partial<ChatState> = { messages: state.hasNewer ? state.messages : applyEvent(state.messages, ev) };
  // The wait is kept as its deadline: the notice counts down to it.
  if (ev.type === 'retry') patch.retry = { until: Date.now() + (ev.retryAfterMs ?? 0), seconds: Math.ceil((ev.retryAfterMs ?? 0) / 1000) };
  if (ev.type === 'text' || ev.type === 'messageEnd') Object.assign(patch, { notice: '', retry: null });
  if (ev.type === 'toolCall') patch.retry = null;
  if (ev.type === 'stepLimit') patch.notice = ev.error ?? '';
  set(patch);
}

/** meterSeq is the seq of the event each chat's meter was last set from (a context event, or a turn's end). */
const meterSeq = new Map<string, number>();

/**
 * applyMeter shows a context event's meter unless a newer event set it: the meter is "the newest
 * wins", so a context event the Orderer gave up waiting for still counts when nothing newer came.
 */
function applyMeter(ev: ChatEvent) {
  if (!ev.context || ev.seq <= (meterSeq.get(ev.chatId) ?? 0)) return;
  meterSeq.set(ev.chatId, ev.seq);
  set({ meters: { ...chatStore.get().meters, [ev.chatId]: ev.context } });
}

/** onLateEvent takes what comes after the Orderer gave up on it: only the meter still wants it. */
function onLateEvent(ev: ChatEvent) {
  if (ev.type === 'context') applyMeter(ev);
}

function omit<V>(r: Record<string, V>, key: string): Record<string, V> {
  const rest = { ...r };
  delete rest[key];
  return rest;
}

let watching = false;
/** watchRequests follows approvals and forms outside the Chat page (an MCP App on the Tools page). */
export function watchRequests(): void { watch(); }
function watch() {
  if (watching || !hasRuntime()) return;
  watching = true;
  const order = new Orderer<ChatEvent>((e) => e.chatId, onChatEvent, undefined, onLateEvent);
  on(EventChat, (ev) => order.push(ev));
  on(EventApproval, (a) => set({ approvals: [...chatStore.get().approvals.filter((x) => x.id !== a.id), a] }));
  on(EventElicit, (e) => set({ elicits: [...chatStore.get().elicits.filter((x) => x.id !== e.id), e] }));
  on(EventNotice, (n) => set({ notices: addNotice(chatStore.get().notices, n) }));
  on(EventChatsChanged, followOthers);
  on(EventRequestDone, (d) => {
    const { approvals, elicits } = chatStore.get();
    set({ approvals: approvals.filter((a) => a.id !== d.id), elicits: elicits.filter((e) => e.id !== d.id) });
  });
}

/** MAX_NOTICES bounds the notices kept: a server refused in a loop shows one line with a count. */
export const MAX_NOTICES = 20;

/** addNotice adds n, or counts it again on the notice that says the same in the same chat (pure, for tests). */
export function addNotice(list: Notice[], n: gui.Notice): Notice[] {
  const same = list.find((x) => x.chatId === n.chatId && x.kind === n.kind && x.server === n.server && x.text === n.text);
  if (same) return [...list.filter((x) => x !== same), { ...same, count: same.count + 1 }];
  return [...list, { ...n, count: 1 }].slice(-MAX_NOTICES);
}

/** setMeter keeps a chat's context meter (ChatContext's answer for a chat just opened). */
export function setMeter(chatId: string, m: ContextMeter): void {
  set({ meters: { ...chatStore.get().meters, [chatId]: m } });
}

/**
 * remeasure drops a chat's context meter, so the meter asks ChatContext again: after its model
 * (another window size) or its tools (other definitions) changed, the meter it had measured a
 * request that will not be sent.
 */
export function remeasure(chatId: string): void {
  const { meters, running } = chatStore.get();
  if (running[chatId] || !meters[chatId]) return; // a running turn's events carry the meter
  set({ meters: omit(meters, chatId) });
}

/** dismissNotice removes a notice once the user has read it. */
export function dismissNotice(id: string): void {
  set({ notices: chatStore.get().notices.filter((n) => n.id !== id) });
}

const fail = (err: unknown) => set({ error: sentence(errorMessage(err)) });

export async function loadChats(): Promise<void> {
  if (!hasBackend()) return;
  watch();
  try {
    const chats = await call(() => Chats(200, 0));
    set({ chats: chats ?? [] });
    await markRunning();
    const pending = (await call(() => PendingRequests())) ?? [];
    set({
      approvals: pending.flatMap((p) => (p.approval ? [p.approval] : [])),
      elicits: pending.flatMap((p) => (p.elicit ? [p.elicit] : [])),
    });
  } catch (err) {
    fail(err);
  }
}

/** asking holds, for each RunningChats call in flight, the chats whose turn ended meanwhile. */
const asking = new Set<Set<string>>();

/**
 * markRunning marks answering the chats the Go side runs a turn of: a window loaded (or
 * reloaded) mid-turn has seen no event of it yet. Turns that ended while it asked stay ended.
 */
async function markRunning(): Promise<void> {
  if (!hasMethod('ChatPage', 'RunningChats')) return;
  const ended = new Set<string>();
  asking.add(ended);
  try {
    const ids = (await call(() => RunningChats())) ?? [];
    const running = withRunning(chatStore.get().running, ids, ended);
    if (running !== chatStore.get().running) set({ running });
  } finally {
    asking.delete(ended);
  }
}

/**
 * withRunning is running with ids marked answering, except those whose turn ended since they
 * were read (pure, for tests). It only adds: a turn the window starts is marked before the Go
 * side runs it, and its end clears it. The same object when nothing changes.
 */
export function withRunning(running: Record<string, boolean>, ids: string[], ended: ReadonlySet<string>): Record<string, boolean> {
  const add = ids.filter((id) => !running[id] && !ended.has(id));
  if (add.length === 0) return running;
  return { ...running, ...Object.fromEntries(add.map((id) => [id, true])) };
}

/**
 * spliceTail lays a freshly read last page over the open chat's messages (pure, for tests):
 * stored messages older than the page are kept, everything from the page's first seq on —
 * and what streamed in (seq 0) — is replaced by the page. When the page does not join up with
 * what is kept (more than a page was added), the page alone is kept and older ones load on scroll.
 */
export function spliceTail(messages: Message[], hasMore: boolean, page: MessagePage): { messages: Message[]; hasMore: boolean } {
  const tail = reuse(messages, page.messages ?? []);
  if (tail.length === 0) return { messages: [], hasMore: false };
  const first = tail[0]!.seq;
  const keep = messages.filter((m) => m.seq > 0 && m.seq < first);
  if (keep.length > 0 && keep[keep.length - 1]!.seq === first - 1) return { messages: [...keep, ...tail], hasMore };
  return { messages: tail, hasMore: page.hasMore };
}

/**
 * reuse returns fresh, with each message that is already shown unchanged (same id and content)
 * replaced by the object on screen, so the views of the messages a reload did not change are
 * not rendered again.
 */
function reuse(shown: Message[], fresh: Message[]): Message[] {
  const byId = new Map(shown.map((m) => [m.id, m]));
  return fresh.map((m) => {
    const old = byId.get(m.id);
    return old && JSON.stringify(old) === JSON.stringify(m) ? old : m;
  });
}

/** prependPage puts an older page before the open chat's messages (pure, for tests). */
export function prependPage(messages: Message[], page: MessagePage): { messages: Message[]; hasMore: boolean } {
  const have = new Set(messages.map((m) => m.id));
  return { messages: [...(page.messages ?? []).filter((m) => !have.has(m.id)), ...messages], hasMore: page.hasMore };
}

/** oldestSeq is the seq of the oldest stored message shown (0 when none is stored yet). */
export function oldestSeq(messages: Message[]): number {
  return messages.find((m) => m.seq > 0)?.seq ?? 0;
}

/** appendPage puts a newer page after the open chat's messages (pure, for tests): only what is past the last one shown. */
export function appendPage(messages: Message[], page: MessagePage): { messages: Message[]; hasNewer: boolean } {
  const last = newestSeq(messages);
  return { messages: [...messages, ...(page.messages ?? []).filter((m) => m.seq > last)], hasNewer: !!page.hasNewer };
}

/** newestSeq is the seq of the newest stored message shown (0 when none is stored yet). */
export function newestSeq(messages: Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.seq > 0) return messages[i]!.seq;
  return 0;
}

/**
 * openChat shows a chat from its last page, or, with at (a search hit's message), from the page
 * around that message, which the view brings into sight and marks; newer pages then load as the
 * user scrolls down.
 */
export async function openChat(id: string, { at = '' }: { at?: string } = {}): Promise<void> {
  await leaveFor(id);
  if (!id) return;
  try {
    const page = at ? await call(() => ChatMessagesAround(id, at, PAGE)).catch(() => null) : null;
    // A hit whose message is gone since (the chat was edited) opens the chat at its end.
    const shown = page ?? await call(() => ChatMessagesPage(id, 0, FIRST_PAGE));
    if (chatStore.get().current !== id) return;
    set({ messages: shown.messages ?? [], hasMore: shown.hasMore, hasNewer: !!page && !!shown.hasNewer, jump: page ? at : '' });
  } catch (err) {
    fail(err);
  }
}

/**
 * refreshChat reloads only the open chat's last page and splices it in, so a reply in a long chat
 * does not re-read the whole chat. A chat opened at a search hit shows no end to splice it to: the
 * newer pages bring it.
 */
async function refreshChat(id: string): Promise<void> {
  try {
    if (chatStore.get().hasNewer) return;
    const page = await call(() => ChatMessagesPage(id, 0, PAGE));
    const s = chatStore.get();
    if (s.current !== id || s.hasNewer) return;
    set(spliceTail(s.messages, s.hasMore, page));
  } catch (err) {
    fail(err);
  }
}

/**
 * followTail lays what another process stored over the open chat's messages (pure, for tests): page
 * holds the chat's messages from seq from on, from being the newest shown (0: none), which a turn
 * still running there goes on updating. Null when the page does not go on from what is shown (its
 * message at from is another one: that process edited an earlier message), so the caller reads the
 * last page instead; the same messages array when nothing changed.
 */
export function followTail(messages: Message[], hasMore: boolean, page: MessagePage, from: number): { messages: Message[]; hasMore: boolean } | null {
  if (from === 0) return { messages: page.messages ?? [], hasMore: page.hasMore };
  const fresh = (page.messages ?? []).filter((m) => m.seq >= from);
  const at = messages.find((m) => m.seq === from);
  if (fresh[0]?.seq !== from || fresh[0].id !== at?.id) return null;
  const next = [...messages.filter((m) => m.seq > 0 && m.seq < from), ...reuse(messages, fresh)];
  const same = next.length === messages.length && next.every((m, i) => m === messages[i]);
  return { messages: same ? messages : next, hasMore };
}

let following: Promise<void> | null = null;
let followAgain = false;

/**
 * followOthers shows what another process ('switchboard chat' on the same data dir) stored, when
 * the Go side says it did (EventChatsChanged): the chat list, and the open chat's messages from its
 * newest one on (usually one or two). The window's own turn shows from its events instead, and a
 * chat opened at a search hit reads newer pages as the user scrolls. One read at a time: what is
 * said meanwhile is read once after it (the promise is that of the read under way).
 */
function followOthers(): Promise<void> {
  if (following) {
    followAgain = true;
    return following;
  }
  following = (async () => {
    try {
      do {
        followAgain = false;
        await loadChats();
        await followOpenChat();
      } while (followAgain);
    } finally {
      following = null;
    }
  })();
  return following;
}

async function followOpenChat(): Promise<void> {
  const s = chatStore.get();
  const id = s.current;
  if (!id || s.running[id] || s.hasNewer) return;
  const from = newestSeq(s.messages);
  try {
    const count = s.chats.find((c) => c.id === id)?.messageCount ?? (await call(() => GetChat(id))).messageCount;
    if (count === 0 && from === 0) return;
    // Its end was taken back (an edit there), or more than a page came: the last page.
    if (count < from || count - from >= PAGE) return void (await refreshChat(id));
    const page = await call(() => (from === 0 ? ChatMessagesPage(id, 0, FIRST_PAGE) : ChatMessagesPage(id, count + 1, count - from + 1)));
    const now = chatStore.get();
    if (now.current !== id || now.running[id] || now.hasNewer || newestSeq(now.messages) !== from) return;
    const next = followTail(now.messages, now.hasMore, page, from);
    if (next === null) await refreshChat(id);
    else if (next.messages !== now.messages) set(next);
  } catch {
    // The chat was deleted meanwhile: the list, just read, no longer has it.
  }
}

/** loadNewer adds the page after the newest message shown, when the chat was opened at a search hit. */
export async function loadNewer(): Promise<void> {
  const { current: id, hasNewer, loadingNewer, messages } = chatStore.get();
  const after = newestSeq(messages);
  if (!id || !hasNewer || loadingNewer) return;
  set({ loadingNewer: true });
  try {
    // Seqs run without gaps: the page before after+PAGE+1 is the PAGE messages after the newest shown.
    const page = await call(() => ChatMessagesPage(id, after + PAGE + 1, PAGE));
    const s = chatStore.get();
    if (s.current === id && newestSeq(s.messages) === after) set(appendPage(s.messages, page));
  } catch (err) {
    fail(err);
  } finally {
    set({ loadingNewer: false });
  }
}

/** toLatest shows the open chat's end again (its last page), when it was opened at a search hit. */
export async function toLatest(): Promise<void> {
  const { current: id, hasNewer } = chatStore.get();
  if (!id || !hasNewer) return;
  try {
    const page = await call(() => ChatMessagesPage(id, 0, FIRST_PAGE));
    if (chatStore.get().current !== id) return;
    set({ messages: page.messages ?? [], hasMore: page.hasMore, hasNewer: false, jump: '' });
  } catch (err) {
    fail(err);
  }
}

/** jumped says the view has brought the search hit into sight. */
export const jumped = (): void => set({ jump: '' });

/** loadOlder adds the page before the oldest message shown, when there is one. */
export async function loadOlder(): Promise<void> {
  const { current: id, hasMore, loadingOlder, messages } = chatStore.get();
  const before = oldestSeq(messages);
  if (!id || !hasMore || loadingOlder || before <= 1) return;
  set({ loadingOlder: true });
  try {
    const page = await call(() => ChatMessagesPage(id, before, PAGE));
    const s = chatStore.get();
    if (s.current === id && oldestSeq(s.messages) === before) set(prependPage(s.messages, page));
  } catch (err) {
    fail(err);
  } finally {
    set({ loadingOlder: false });
  }
}

/** leaveFor takes the chat shown off the view, its apps told first while their frames are there, and makes id current. */
async function leaveFor(id: string): Promise<void> {
  await tearDownApps();
  const left = chatStore.get().current;
  const draft = left !== id && isDraft(chatStore.get(), left);
  set({ current: id, messages: [], hasMore: false, loadingOlder: false, hasNewer: false, loadingNewer: false, jump: '', notice: '', retry: null, error: '', editing: '' });
  if (draft) void dropEmpty(left, true);
}

/** Drafts is what isDraft reads of the chat state (of the open chat's messages, only how many are shown). */
export type Drafts = Pick<ChatState, 'chats' | 'current' | 'running' | 'approvals' | 'elicits'> & { messages: { length: number } };

/**
 * isDraft says chat id is a chat never used (pure, for tests): untitled, with no message stored
 * (the list says so) or shown, no turn running and nothing asked in it. New chat reuses the open
 * one instead of making another; one left for another chat is deleted, and the list shows none
 * but the open one (listed). The CLI makes a chat only with its first message (titled by it), so
 * no chat of its is a draft.
 */
export function isDraft(s: Drafts, id: string): boolean {
  const c = s.chats.find((x) => x.id === id);
  if (!c || c.title || c.messageCount > 0 || s.running[id]) return false;
  if (s.approvals.some((a) => a.chatId === id) || s.elicits.some((e) => e.chatId === id)) return false;
  return id !== s.current || s.messages.length === 0;
}

/** listed is the chats the list shows: every chat but drafts, the open one and one answering excepted (pure, for tests). */
export function listed(s: Drafts): Chat[] {
  return s.chats.filter((c) => c.id === s.current || !isDraft(s, c.id));
}

/** modelInUse is the provider and model a new chat goes on with: the open chat's, else the last chat used's (pure, for tests). */
export function modelInUse(s: Pick<ChatState, 'chats' | 'current'>): { provider: string; model: string } {
  const c = s.chats.find((x) => x.id === s.current) ?? s.chats.find((x) => x.messageCount > 0);
  return { provider: c?.provider ?? '', model: c?.model ?? '' };
}

/** modelChanged notes that the header switched chat id's provider and model (New chat goes on with them). */
export function modelChanged(id: string, provider: string, model: string): void {
  set({ chats: chatStore.get().chats.map((c) => (c.id === id ? { ...c, provider, model } : c)) });
}

/**
 * creating is the chat "New chat" is making: a message sent meanwhile goes
 * to it, never to the chat shown before the click.
 */
let creating: Promise<string> | null = null;

/**
 * newChat makes a chat, with the model in use, and opens it; the chat shown before leaves the
 * view at once. On a chat never used (of the same agent) it makes none: the composer takes the
 * focus, so New chat pressed again adds no "Untitled chat".
 */
export function newChat(agentId = ''): Promise<string> {
  const s = chatStore.get();
  const open = s.chats.find((c) => c.id === s.current);
  if (!creating && open && (open.agent ?? '') === agentId && isDraft(s, s.current)) {
    set({ focus: s.focus + 1 });
    return Promise.resolve(s.current);
  }
  const { provider, model } = modelInUse(s);
  const made = (async () => {
    await leaveFor('');
    try {
      const c = agentId ? await call(() => NewAgentChat(agentId)) : await call(() => NewChat(provider, model));
      await loadChats();
      await openChat(c.id);
      return c.id;
    } catch (err) {
      fail(err);
      return '';
    }
  })();
  creating = made;
  void made.finally(() => {
    if (creating === made) creating = null;
  });
  return made;
}

export async function send(text: string): Promise<boolean> {
  // A chat being made ("New chat" just clicked) is where the message goes.
  let id = creating ? await creating : chatStore.get().current;
  // The turn goes after the chat's end: a chat opened at a search hit shows it first.
  await toLatest();
  // A chat made for this message alone goes again when the message could
  // not be sent (no model provider, say): no empty "Untitled chat" stays.
  const made = !id;
  if (!id) id = await newChat();
  if (!id) return false;
  try {
    set({ error: '', running: { ...chatStore.get().running, [id]: true }, sending: { ...chatStore.get().sending, [id]: text } });
    await call(() => SendMessage(id, text));
    return true;
  } catch (err) {
    set({ running: { ...chatStore.get().running, [id]: false }, sending: omit(chatStore.get().sending, id) });
    if (made && chatStore.get().messages.length === 0) await dropEmpty(id);
    fail(err);
    return false;
  }
}

/** lastUserMessage is the open chat's last message from the user (what ↑ edits and Retry answers again). */
export function lastUserMessage(messages: Message[]): Message | undefined {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user') return messages[i];
  return undefined;
}

/** laterUserMessages counts the user's messages after message id: resending id deletes them (and their answers). */
export function laterUserMessages(messages: Message[], id: string): number {
  const i = messages.findIndex((m) => m.id === id);
  return i < 0 ? 0 : messages.slice(i + 1).filter((m) => m.role === 'user').length;
}

export const startEdit = (id: string): void => set({ editing: id });
export const cancelEdit = (): void => set({ editing: '' });

/** startTurn runs a turn the backend starts (a retry, an edit) in the open chat. */
async function startTurn(run: (id: string) => Promise<void>): Promise<boolean> {
  const id = chatStore.get().current;
  if (!id || chatStore.get().running[id]) return false;
  await toLatest();
  try {
    set({ error: '', notice: '', running: { ...chatStore.get().running, [id]: true } });
    await call(() => run(id));
    return true;
  } catch (err) {
    set({ running: { ...chatStore.get().running, [id]: false } });
    fail(err);
    return false;
  }
}

/** retry asks the model again for the last answer; the new answer replaces it (and its tool calls). */
export const retry = (): Promise<boolean> => startTurn((id) => RetryAnswer(id));

/** compactNow summarises the open chat's earlier messages now (the meter's Compact now); it runs like a turn. */
export const compactNow = (): Promise<boolean> => startTurn((id) => CompactChat(id));

/** resend replaces user message messageId's text, deletes every later message and asks the model again. */
export async function resend(messageId: string, text: string): Promise<boolean> {
  const ok = await startTurn((id) => EditMessage(id, messageId, text));
  if (ok) set({ editing: '' });
  return ok;
}

/**
 * retryNow cuts the open chat's rate-limit wait short (the countdown's Retry now): the provider
 * is asked again at once. The countdown says so until the answer (or the next wait) arrives.
 */
export async function retryNow(): Promise<void> {
  const { current: id, retry } = chatStore.get();
  if (!id || !retry) return;
  try {
    await call(() => RetryNow(id));
    // A wait that began meanwhile (the provider limited the retry too) counts down in full.
    if (chatStore.get().retry === retry) set({ retry: { ...retry, until: Math.min(retry.until, Date.now()) } });
  } catch (err) {
    fail(err);
  }
}

export const stop = (): Promise<void> => call(() => StopChat(chatStore.get().current)).catch(fail);
export const answerApproval = (id: string, decision: 'once' | 'always' | 'deny'): Promise<void> =>
  call(() => AnswerApproval(id, decision)).catch(fail);
export const answerElicit = (id: string, action: 'accept' | 'decline' | 'cancel', content?: unknown): Promise<void> =>
  call(() => AnswerElicitation(id, action, content === undefined ? '' : JSON.stringify(content))).catch(fail);

export async function rename(id: string, title: string): Promise<void> {
  await call(() => RenameChat(id, title)).catch(fail);
  await loadChats();
}

/**
 * dropEmpty deletes, quietly, a chat send made whose message was refused (it has none), or a
 * draft left for another chat: checked again first, as a turn may have begun in it meanwhile.
 */
async function dropEmpty(id: string, check = false): Promise<void> {
  try {
    if (check && ((await call(() => GetChat(id))).messageCount > 0 || chatStore.get().running[id])) return;
    await call(() => DeleteChat(id));
    if (chatStore.get().current === id) set({ current: '', messages: [], hasMore: false });
    await loadChats();
  } catch {
    // It stays in the list; the user can delete it.
  }
}

export async function remove(id: string): Promise<void> {
  try {
    await call(() => DeleteChat(id));
    if (chatStore.get().current === id) set({ current: '', messages: [], hasMore: false });
    await loadChats();
  } catch (err) {
    fail(err);
  }
}

export async function searchChats(q: string): Promise<void> {
  if (!q.trim()) {
    set({ hits: null });
    return;
  }
  try {
    const hits = await call(() => SearchChats(q));
    set({ hits: hits ?? [] });
  } catch (err) {
    fail(err);
  }
}

export const clearError = () => set({ error: '' });
export const chatState = chatStore.get;
