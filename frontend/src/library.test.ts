import { describe, expect, it } from 'vitest';
import { applyEvent, type ChatEvent, type Message, type ToolCall } from './chat';
import { allTags, filterServers, type ServerView } from './servers';

const server = (name: string, tags: string[], description = '', command = ''): ServerView => ({
  name, description, command, serverName: '', meta: { tags, description: '', docsUrl: '', color: '', icon: '', template: '' }, usedBy: [], icon: '',
  state: '', error: '', pid: 0, restarts: 0, transport: '', toolCount: 0, version: '', since: '', calls: 0, errors: 0, p50Ms: 0,
  stderrTail: [], title: '', instructions: '', docsUrl: '', seq: 0, roots: [], rootsRule: 'workspace', rootsMode: 'auto', configuredFolders: [], logging: false, logLevel: '', protocol: '', progress: '', bundle: undefined, sandboxed: false,
});

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

/** call is a streamed call with only some fields set, the rest empty as Go sends them. */
const call = (c: Partial<ToolCall> & { id: string; index: number }): ToolCall => ({
  name: '', server: '', tool: '', args: '', status: '', isError: false, error: '', durationMs: 0, approvalId: '', ...c,
});

describe('delegated calls', () => {
  const start: Message[] = [{ id: 'm1', chatId: 'c', seq: 1, role: 'assistant', text: '', status: 'streaming', error: '', model: '', inputTokens: 0, outputTokens: 0, createdAt: '', toolCalls: [] }];
  const ev = (seq: number, c: Parameters<typeof call>[0]): ChatEvent => ({ chatId: 'c', seq, type: 'toolCall', messageId: 'm1', call: call(c) });
  it('nests sub-agent calls under their ask_<server> card, by parent ID', () => {
    let m = applyEvent(start, ev(1, { id: 'a1', index: 0, name: 'ask_files', server: 'files', status: 'running' }));
    m = applyEvent(m, ev(2, { id: 'a1/s1', index: 0, name: 'files__echo', parent: 'a1', status: 'running' }));
    m = applyEvent(m, ev(3, { id: 'a1/s1', index: 0, name: 'files__echo', parent: 'a1', status: 'done', durationMs: 4 }));
    m = applyEvent(m, ev(4, { id: 'a1/s2', index: 1, name: 'files__write', parent: 'a1', status: 'done' }));
    const calls = m[0]!.toolCalls;
    expect(calls).toHaveLength(1); // the sub-calls' index 0 does not replace the parent
    expect(calls[0]!.steps?.map((s) => `${s.name}:${s.status}`)).toEqual(['files__echo:done', 'files__write:done']);
  });
});
