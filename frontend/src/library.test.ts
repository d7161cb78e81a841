import { describe, expect, it } from 'vitest';
import { app } from '../wailsjs/go/models';
import { applyEvent, fromStored, type ChatEvent, type Message } from './chat';
import { allTags, filterServers } from './servers';

const server = (name: string, tags: string[], description = '', command = '') =>
  app.ServerView.createFrom({ name, description, command, serverName: '', meta: { tags }, usedBy: [] });

describe('filterServers', () => {
  const list = [server('github', ['code', 'work'], 'Issues and PRs'), server('memory', ['notes']), server('fs', ['work'], '', 'npx server-filesystem /srv')];
  it('filters by tag and every word of the query', () => {
    expect(filterServers(list, '', 'work').map((s) => s.name)).toEqual(['github', 'fs']);
    expect(filterServers(list, 'issues', '').map((s) => s.name)).toEqual(['github']);
    expect(filterServers(list, 'filesystem srv', 'work').map((s) => s.name)).toEqual(['fs']);
    expect(filterServers(list, 'issues', 'notes')).toEqual([]);
    expect(allTags(list)).toEqual(['code', 'notes', 'work']);
  });
});

describe('delegated calls', () => {
  const start: Message[] = [{ id: 'm1', role: 'assistant', text: '', status: 'streaming', error: '', model: '', inputTokens: 0, outputTokens: 0, toolCalls: [] }];
  const ev = (seq: number, call: ChatEvent['call']): ChatEvent => ({ chatId: 'c', seq, type: 'toolCall', messageId: 'm1', call });
  it('nests sub-agent calls under their ask_<server> card, by parent ID', () => {
    let m = applyEvent(start, ev(1, { id: 'a1', index: 0, name: 'ask_files', server: 'files', status: 'running' }));
    m = applyEvent(m, ev(2, { id: 'a1/s1', index: 0, name: 'files__echo', parent: 'a1', status: 'running' }));
    m = applyEvent(m, ev(3, { id: 'a1/s1', index: 0, name: 'files__echo', parent: 'a1', status: 'done', durationMs: 4 }));
    m = applyEvent(m, ev(4, { id: 'a1/s2', index: 1, name: 'files__write', parent: 'a1', status: 'done' }));
    const calls = m[0]!.toolCalls;
    expect(calls).toHaveLength(1); // the sub-calls' index 0 does not replace the parent
    expect(calls[0]!.steps?.map((s) => `${s.name}:${s.status}`)).toEqual(['files__echo:done', 'files__write:done']);
  });
  it('reads nested steps back from the stored result', () => {
    const msg = fromStored({
      id: 'm1', role: 'assistant', text: '', status: 'complete', error: '', model: '', inputTokens: 0, outputTokens: 0,
      toolCalls: [{ id: 'a1', server: 'files', tool: 'ask_files', arguments: { query: 'q' }, isError: false, status: 'done', durationMs: 9,
        result: { content: [{ type: 'text', text: 'answer' }], structuredContent: { answer: 'answer', steps: [{ tool: 'files__echo', server: 'files', arguments: { text: 'x' }, result: 'echo: x', durationMs: 2 }] } } }],
    });
    expect(msg.toolCalls[0]!.steps?.[0]).toMatchObject({ name: 'files__echo', tool: 'echo', status: 'done', parent: 'a1' });
  });
});
