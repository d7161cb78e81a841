import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { applyEvent, resultText, type ChatEvent, type Message, type ToolCall } from './chat';
import { matchPrompts, withAttachments } from './pages/chat/ComposerExtras';
import { Orderer } from './orderer';
import { Markdown } from './pages/chat/Markdown';

describe('Markdown', () => {
  it('renders GFM tables and highlighted code, never raw HTML', () => {
    const { container } = render(<Markdown text={'| fruit | n |\n|---|---|\n| apple | 3 |\n\n```js\nconst a = 1;\n```\n\n<b>bold?</b>'} />);
    expect(screen.getByRole('cell', { name: 'apple' })).toBeTruthy();
    expect(container.querySelector('pre code.hljs')).toBeTruthy();
    expect(container.querySelector('b')).toBeNull();
    expect(screen.getByRole('button', { name: 'Copy code' })).toBeTruthy();
  });
});

/** call is a streamed call with only some fields set, the rest empty as Go sends them. */
const call = (c: Partial<ToolCall> & { id: string; index: number }): ToolCall => ({
  name: '', server: '', tool: '', args: '', status: '', isError: false, error: '', durationMs: 0, approvalId: '', ...c,
});

describe('applyEvent', () => {
  it('builds an assistant message with a streamed tool call from events', () => {
    let msgs: Message[] = [];
    msgs = applyEvent(msgs, { chatId: 'c', seq: 1, type: 'message', messageId: 'u1', role: 'user', text: 'hi' });
    msgs = applyEvent(msgs, { chatId: 'c', seq: 2, type: 'message', messageId: 'a1', role: 'assistant' });
    msgs = applyEvent(msgs, { chatId: 'c', seq: 3, type: 'text', messageId: 'a1', text: 'Hel' });
    msgs = applyEvent(msgs, { chatId: 'c', seq: 4, type: 'text', messageId: 'a1', text: 'lo' });
    msgs = applyEvent(msgs, { chatId: 'c', seq: 5, type: 'toolCall', messageId: 'a1', call: call({ id: 'x', index: 0, name: 'files__read', status: 'streaming' }) });
    msgs = applyEvent(msgs, { chatId: 'c', seq: 6, type: 'toolArgs', messageId: 'a1', call: call({ id: 'x', index: 0, args: '{"pa' }) });
    msgs = applyEvent(msgs, { chatId: 'c', seq: 7, type: 'toolArgs', messageId: 'a1', call: call({ id: 'x', index: 0, args: 'th":1}' }) });
    msgs = applyEvent(msgs, { chatId: 'c', seq: 8, type: 'messageEnd', messageId: 'a1', text: 'Hello', status: 'complete', usage: { inputTokens: 5, outputTokens: 2 } });
    msgs = applyEvent(msgs, { chatId: 'c', seq: 9, type: 'toolCall', messageId: 'a1', call: call({ id: 'x', index: 0, name: 'files__read', server: 'files', tool: 'read', args: '{"path":1}', status: 'done', durationMs: 12 }) });
    expect(msgs).toHaveLength(2);
    const a = msgs[1]!;
    expect(a.text).toBe('Hello');
    expect(a.outputTokens).toBe(2);
    expect(a.toolCalls).toHaveLength(1);
    expect(a.toolCalls[0]).toMatchObject({ args: '{"path":1}', status: 'done', server: 'files', durationMs: 12 });
  });

  it('puts a progress event on its running call (nested too), leaving its state to its own events', () => {
    let msgs: Message[] = [];
    msgs = applyEvent(msgs, { chatId: 'c', seq: 1, type: 'message', messageId: 'a1', role: 'assistant' });
    msgs = applyEvent(msgs, { chatId: 'c', seq: 2, type: 'toolCall', messageId: 'a1', call: call({ id: 'x', index: 0, name: 'odd__slow', server: 'odd', args: '{"seconds":20}', status: 'running' }) });
    msgs = applyEvent(msgs, { chatId: 'c', seq: 3, type: 'toolCall', messageId: 'a1', call: call({ id: 'y', index: 1, name: 'ask_odd', status: 'running' }) });
    msgs = applyEvent(msgs, { chatId: 'c', seq: 4, type: 'toolCall', messageId: 'a1', call: call({ id: 'y/1', index: 0, parent: 'y', name: 'odd__slow', status: 'running' }) });
    msgs = applyEvent(msgs, { chatId: 'c', seq: 5, type: 'progress', messageId: 'a1', call: call({ id: 'x', index: 0, name: 'odd__slow', status: 'running' }), progress: { progress: 7, total: 20, message: 'step 7' } });
    msgs = applyEvent(msgs, { chatId: 'c', seq: 6, type: 'progress', messageId: 'a1', call: call({ id: 'y/1', index: 0, parent: 'y', name: 'odd__slow', status: 'running' }), progress: { progress: 2 } });
    const [x, y] = msgs[0]!.toolCalls as ToolCall[];
    expect(x).toMatchObject({ args: '{"seconds":20}', server: 'odd', status: 'running', progress: { progress: 7, total: 20, message: 'step 7' } });
    expect(y!.steps?.[0]).toMatchObject({ status: 'running', progress: { progress: 2 } });
    msgs = applyEvent(msgs, { chatId: 'c', seq: 7, type: 'toolCall', messageId: 'a1', call: call({ id: 'x', index: 0, name: 'odd__slow', status: 'done' }) });
    expect(msgs[0]!.toolCalls[0]!.status).toBe('done');
  });

  // Stored messages come from Go already in this shape (app/chatviews_test.go).
  it('joins text results, or shows structured content', () => {
    const text = (t: string) => ({ type: 'text', text: t, data: '', mimeType: '', uri: '', name: '', title: '', description: '' });
    expect(resultText({ isError: false, content: [text('Echo: hi')], structured: '', schemaError: '', durationMs: 3 })).toBe('Echo: hi');
    expect(resultText({ isError: false, content: [text('a'), text('b')], structured: '{"n":1}', schemaError: '', durationMs: 3 })).toBe('a\nb');
    expect(resultText({ isError: false, content: [], structured: '{"n":1}', schemaError: '', durationMs: 3 })).toBe('{"n":1}');
    expect(resultText(undefined)).toBe('');
  });
});

describe('Orderer', () => {
  const ev = (chatId: string, seq: number): ChatEvent => ({ chatId, seq, type: 'text', text: String(seq) });

  it('delivers shuffled events in seq order, per chat, dropping duplicates', () => {
    const got: string[] = [];
    const o = new Orderer<ChatEvent>((e) => e.chatId, (e) => got.push(`${e.chatId}${e.seq}`), () => {});
    for (const e of [ev('a', 1), ev('a', 3), ev('b', 7), ev('a', 2), ev('a', 2), ev('b', 8), ev('a', 5), ev('a', 4)]) o.push(e);
    expect(got).toEqual(['a1', 'b7', 'a2', 'a3', 'b8', 'a4', 'a5']);
  });

  it('takes a joined event (from…seq) as covering its range, in order or shuffled', () => {
    const got: string[] = [];
    const o = new Orderer<ChatEvent>((e) => e.chatId, (e) => got.push(`${e.from ?? e.seq}-${e.seq}`), () => {});
    for (const e of [ev('a', 1), { ...ev('a', 5), from: 3 }, { ...ev('a', 2) }, ev('a', 6), { ...ev('a', 9), from: 7 }]) o.push(e);
    expect(got).toEqual(['1-1', '2-2', '3-5', '6-6', '7-9']);
  });

  it('gives up on a gap that never fills', () => {
    const got: number[] = [];
    const timers: (() => void)[] = [];
    const late: number[] = [];
    const o = new Orderer<ChatEvent>((e) => e.chatId, (e) => got.push(e.seq), (fn) => timers.push(fn), (e) => late.push(e.seq));
    o.push(ev('a', 1));
    o.push(ev('a', 4));
    o.push(ev('a', 3));
    expect(got).toEqual([1]);
    timers.forEach((t) => t());
    expect(got).toEqual([1, 3, 4]);
    o.push(ev('a', 2)); // too late: not delivered, handed to late
    o.push(ev('a', 5));
    expect(got).toEqual([1, 3, 4, 5]);
    expect(late).toEqual([2]);
  });
});

describe('composer extras', () => {
  const p = (server: string, name: string) => ({ server, name, title: '', description: '', arguments: [] });
  it('matches slash commands by prompt or server name, only before a space', () => {
    const prompts = [p('everything', 'args-prompt'), p('everything', 'simple-prompt'), p('git', 'commit-message')];
    expect(matchPrompts(prompts, '/args').map((x) => x.name)).toEqual(['args-prompt']);
    expect(matchPrompts(prompts, '/git').map((x) => x.name)).toEqual(['commit-message']);
    expect(matchPrompts(prompts, '/').length).toBe(3);
    expect(matchPrompts(prompts, '/args now')).toEqual([]);
    expect(matchPrompts(prompts, 'args')).toEqual([]);
  });
  it('appends attachments after the text', () => {
    expect(withAttachments('look', [])).toBe('look');
    expect(withAttachments('look', [{ server: 's', uri: 'u', name: 'n', text: '<resource uri="u">\nx\n</resource>\n' }]))
      .toBe('look\n\n<resource uri="u">\nx\n</resource>');
  });
});
