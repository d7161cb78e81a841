// Chat state: the chat list, the open chat's messages (live from "chat:event"),
// and the questions servers or tools put to the user (approvals, forms).
// Components read it with useChat; it changes only through the actions below.
import { useSyncExternalStore } from 'react';
import {
  AnswerApproval, AnswerElicitation, Chats, ChatMessages, DeleteChat, NewAgentChat, NewChat, PendingRequests,
  RenameChat, SearchChats, SendMessage, StopChat,
} from '../wailsjs/go/app/App';
import { EventsOn } from '../wailsjs/runtime/runtime';
import { call, hasBackend, hasRuntime } from './backend';
import { Orderer } from './orderer';
import { message as errorMessage } from './servers';

export interface Chat {
  id: string;
  title: string;
  provider: string;
  model: string;
  agent: string;
  updatedAt: string;
  messageCount: number;
}

export interface ToolCall {
  id: string;
  index: number;
  name: string;
  server: string;
  tool: string;
  args: string;
  status: string;
  result?: CallResult;
  isError: boolean;
  error: string;
  durationMs: number;
  approvalId: string;
  /** parent is the ask_<server> call a sub-agent's call belongs to. */
  parent?: string;
  /** steps are the calls a delegated sub-agent made, in order. */
  steps?: ToolCall[];
}

export interface CallResult {
  content?: { type: string; text?: string; mimeType?: string }[];
  structuredContent?: unknown;
  isError?: boolean;
}

export interface Message {
  id: string;
  role: 'user' | 'assistant';
  text: string;
  status: string;
  error: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  toolCalls: ToolCall[];
}

export interface Approval {
  id: string;
  chatId: string;
  kind: 'tool' | 'sampling';
  server: string;
  tool: string;
  arguments: unknown;
  destructive: boolean;
}

export interface Elicit {
  id: string;
  chatId: string;
  server: string;
  mode: 'form' | 'url';
  message: string;
  schema?: Record<string, unknown>;
  url?: string;
}

export interface SearchHit {
  chatId: string;
  title: string;
  messageId: string;
  snippet: string;
}

/** ChatEvent mirrors app/chat.Event. */
export interface ChatEvent {
  chatId: string;
  seq: number;
  type: 'message' | 'text' | 'toolCall' | 'toolArgs' | 'retry' | 'stepLimit' | 'messageEnd' | 'done';
  messageId?: string;
  role?: 'user' | 'assistant';
  text?: string;
  call?: Partial<ToolCall> & { id: string; index: number };
  status?: string;
  error?: string;
  retryAfterMs?: number;
  usage?: { inputTokens: number; outputTokens: number };
  steps?: number;
}

export interface ChatState {
  chats: Chat[];
  current: string;
  messages: Message[];
  running: Record<string, boolean>;
  notice: string; // retry or step-limit notice of the open chat
  approvals: Approval[];
  elicits: Elicit[];
  error: string;
  hits: SearchHit[] | null;
}

let state: ChatState = { chats: [], current: '', messages: [], running: {}, notice: '', approvals: [], elicits: [], error: '', hits: null };
const listeners = new Set<() => void>();
function set(patch: Partial<ChatState>) {
  state = { ...state, ...patch };
  for (const l of listeners) l();
}
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export function useChat<T>(select: (s: ChatState) => T): T {
  return useSyncExternalStore(subscribe, () => select(state));
}

/** fromStored converts a stored message (history.Message JSON) to the view's shape. */
interface StoredCall {
  id: string; server: string; tool: string; arguments: unknown; result: CallResult | null;
  isError: boolean; status: string; durationMs: number;
}
interface StoredMessage {
  id: string; role: string; text: string; status: string; error: string; model: string;
  inputTokens: number; outputTokens: number; toolCalls: StoredCall[] | null;
}
export function fromStored(m: StoredMessage): Message {
  return {
    id: m.id, role: m.role === 'user' ? 'user' : 'assistant', text: m.text, status: m.status, error: m.error ?? '',
    model: m.model, inputTokens: m.inputTokens, outputTokens: m.outputTokens,
    toolCalls: (m.toolCalls ?? []).map((c, index) => ({
      id: c.id, index, name: c.tool, server: c.server, tool: c.tool.startsWith(`${c.server}__`) ? c.tool.slice(c.server.length + 2) : c.tool,
      args: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
      status: c.status, result: c.result ?? undefined, isError: c.isError,
      error: c.isError ? resultText(c.result ?? undefined) : '', durationMs: c.durationMs, approvalId: '',
      steps: storedSteps(c.id, c.result),
    })),
  };
}

/** A sub-agent step as kept in its ask_<server> call's structured result. */
interface StoredStep { tool: string; server: string; arguments: unknown; result: string; isError?: boolean; durationMs: number }

/** storedSteps reads a delegated call's nested steps back from its result. */
function storedSteps(parent: string, r: CallResult | null): ToolCall[] | undefined {
  const sc = r?.structuredContent as { steps?: StoredStep[] } | undefined;
  if (!sc || !Array.isArray(sc.steps)) return undefined;
  return sc.steps.map((st, index) => ({
    id: `${parent}/${index}`, index, name: st.tool, server: st.server,
    tool: st.tool.startsWith(`${st.server}__`) ? st.tool.slice(st.server.length + 2) : st.tool,
    args: typeof st.arguments === 'string' ? st.arguments : JSON.stringify(st.arguments ?? {}),
    status: st.isError ? 'error' : 'done', result: { content: [{ type: 'text', text: st.result }] },
    isError: !!st.isError, error: st.isError ? st.result : '', durationMs: st.durationMs, approvalId: '', parent,
  }));
}

/** resultText joins the text parts of a tool result. */
export function resultText(r: CallResult | undefined): string {
  if (!r) return '';
  const text = (r.content ?? []).filter((c) => c.type === 'text').map((c) => c.text ?? '').join('\n');
  if (text) return text;
  return r.structuredContent !== undefined ? JSON.stringify(r.structuredContent, null, 2) : '';
}

/** applyEvent folds one chat event into the open chat's messages (pure, for tests). */
export function applyEvent(messages: Message[], ev: ChatEvent): Message[] {
  const at = (id: string | undefined) => messages.findIndex((m) => m.id === id);
  const patch = (id: string | undefined, fn: (m: Message) => Message) => {
    const i = at(id);
    return i < 0 ? messages : messages.map((m, j) => (j === i ? fn(m) : m));
  };
  switch (ev.type) {
    case 'message':
      if (at(ev.messageId) >= 0) return messages;
      return [...messages, {
        id: ev.messageId ?? '', role: ev.role ?? 'assistant', text: ev.text ?? '', status: ev.role === 'user' ? 'complete' : 'streaming',
        error: '', model: '', inputTokens: 0, outputTokens: 0, toolCalls: [],
      }];
    case 'text':
      return patch(ev.messageId, (m) => ({ ...m, text: m.text + (ev.text ?? '') }));
    case 'toolCall':
    case 'toolArgs':
      if (ev.call?.parent) return patch(ev.messageId, (m) => ({ ...m, toolCalls: nest(m.toolCalls, ev.call!) }));
      return patch(ev.messageId, (m) => {
        const c = ev.call!;
        const i = m.toolCalls.findIndex((t) => t.index === c.index);
        const base: ToolCall = m.toolCalls[i] ?? {
          id: c.id, index: c.index, name: '', server: '', tool: '', args: '', status: 'streaming', isError: false, error: '', durationMs: 0, approvalId: '',
        };
        const next: ToolCall = ev.type === 'toolArgs'
          ? { ...base, args: base.args + (c.args ?? '') }
          : {
            ...base, ...Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined && v !== '')),
            args: c.args ? c.args : base.args,
          } as ToolCall;
        const calls = i >= 0 ? m.toolCalls.map((t, j) => (j === i ? next : t)) : [...m.toolCalls, next];
        return { ...m, toolCalls: calls };
      });
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
function nest(calls: ToolCall[], c: Partial<ToolCall> & { id: string; index: number }): ToolCall[] {
  return calls.map((p) => {
    if (p.id !== c.parent) return p;
    const steps = p.steps ?? [];
    const i = steps.findIndex((s) => s.id === c.id);
    const base: ToolCall = steps[i] ?? {
      id: c.id, index: steps.length, name: '', server: '', tool: '', args: '', status: 'running', isError: false, error: '', durationMs: 0, approvalId: '',
    };
    const next = { ...base, ...Object.fromEntries(Object.entries(c).filter(([k, v]) => v !== undefined && v !== '' && k !== 'index')) } as ToolCall;
    return { ...p, steps: i >= 0 ? steps.map((s, j) => (j === i ? next : s)) : [...steps, next] };
  });
}

function onChatEvent(ev: ChatEvent) {
  if (ev.type === 'done') {
    set({ running: { ...state.running, [ev.chatId]: false } });
    void loadChats();
    // The stored conversation is the truth: it replaces what streamed in.
    if (ev.chatId === state.current) void openChat(ev.chatId, true);
    return;
  }
  if (ev.chatId !== state.current) return;
  const patch: Partial<ChatState> = { messages: applyEvent(state.messages, ev) };
  if (ev.type === 'retry') patch.notice = `The provider is rate-limited; retrying in ${Math.ceil((ev.retryAfterMs ?? 0) / 1000)} s…`;
  if (ev.type === 'text' || ev.type === 'messageEnd') patch.notice = '';
  if (ev.type === 'stepLimit') patch.notice = ev.error ?? '';
  set(patch);
}

let watching = false;
function watch() {
  if (watching || !hasRuntime()) return;
  watching = true;
  const order = new Orderer<ChatEvent>((e) => e.chatId, onChatEvent);
  EventsOn('chat:event', (ev: ChatEvent) => order.push(ev));
  EventsOn('chat:approval', (a: Approval) => set({ approvals: [...state.approvals.filter((x) => x.id !== a.id), a] }));
  EventsOn('chat:elicit', (e: Elicit) => set({ elicits: [...state.elicits.filter((x) => x.id !== e.id), e] }));
  EventsOn('chat:requestDone', (d: { id: string }) => set({
    approvals: state.approvals.filter((a) => a.id !== d.id),
    elicits: state.elicits.filter((e) => e.id !== d.id),
  }));
}

const fail = (err: unknown) => set({ error: errorMessage(err) });

export async function loadChats(): Promise<void> {
  if (!hasBackend()) return;
  watch();
  try {
    const chats = (await call(() => Chats(200, 0))) as unknown as Chat[];
    set({ chats: chats ?? [] });
    const pending = await call(() => PendingRequests());
    set({
      approvals: (pending ?? []).flatMap((p) => (p.approval ? [p.approval as unknown as Approval] : [])),
      elicits: (pending ?? []).flatMap((p) => (p.elicit ? [p.elicit as unknown as Elicit] : [])),
    });
  } catch (err) {
    fail(err);
  }
}

/** openChat shows a chat; refresh reloads the open one without clearing it first. */
export async function openChat(id: string, refresh = false): Promise<void> {
  if (!refresh) set({ current: id, messages: [], notice: '', error: '' });
  if (!id) return;
  try {
    const msgs = (await call(() => ChatMessages(id))) as unknown as StoredMessage[];
    if (state.current === id) set({ messages: (msgs ?? []).map(fromStored) });
  } catch (err) {
    fail(err);
  }
}

export async function newChat(agentId = ''): Promise<string> {
  try {
    const c = (agentId ? await call(() => NewAgentChat(agentId)) : await call(() => NewChat('', ''))) as unknown as Chat;
    await loadChats();
    await openChat(c.id);
    return c.id;
  } catch (err) {
    fail(err);
    return '';
  }
}

export async function send(text: string): Promise<boolean> {
  let id = state.current;
  if (!id) id = await newChat();
  if (!id) return false;
  try {
    set({ error: '', running: { ...state.running, [id]: true } });
    await call(() => SendMessage(id, text));
    return true;
  } catch (err) {
    set({ running: { ...state.running, [id]: false } });
    fail(err);
    return false;
  }
}

export const stop = (): Promise<void> => call(() => StopChat(state.current)).catch(fail);
export const answerApproval = (id: string, decision: 'once' | 'always' | 'deny'): Promise<void> =>
  call(() => AnswerApproval(id, decision)).catch(fail);
export const answerElicit = (id: string, action: 'accept' | 'decline' | 'cancel', content?: unknown): Promise<void> =>
  call(() => AnswerElicitation(id, action, content === undefined ? '' : JSON.stringify(content))).catch(fail);

export async function rename(id: string, title: string): Promise<void> {
  await call(() => RenameChat(id, title)).catch(fail);
  await loadChats();
}

export async function remove(id: string): Promise<void> {
  try {
    await call(() => DeleteChat(id));
    if (state.current === id) set({ current: '', messages: [] });
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
    const hits = (await call(() => SearchChats(q))) as unknown as SearchHit[];
    set({ hits: hits ?? [] });
  } catch (err) {
    fail(err);
  }
}

export const clearError = () => set({ error: '' });
export const chatState = () => state;
