import { afterEach, describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { SkillsPage } from './SkillsPage';
import { readyServers } from '../../servers';
import { EventServerStatus } from '../../backend';
import type { gui, host } from '../../backend';

describe('readyServers', () => {
  it.each([
    [[], ''],
    [[{ name: 'b', state: 'ready' }, { name: 'a', state: 'ready' }], 'a\nb'],
    [[{ name: 'a', state: 'starting' }, { name: 'b', state: 'ready' }], 'b'],
  ])('%j', (list, want) => expect(readyServers(list)).toBe(want));
});

describe('SkillsPage', () => {
  const listeners: Record<string, (p: unknown) => void> = {};
  const notes: host.Skill = { server: 'docs', name: 'release-notes', description: 'Write release notes.', uri: 'skill://release-notes/SKILL.md', files: 1, size: 120, on: true };
  /** backend is the window's Go side as the page uses it, the servers' skills from all. */
  const backend = (all: () => Promise<gui.ServerSkillList>, local: host.LocalSkill[] = []) => {
    window.go = {
      gui: {
        Window: { Info: async () => ({}), ConfigError: async () => '' },
        ServersPage: { Servers: async () => [] },
        SkillsPage: { LocalSkills: async () => ({ skills: local, malformed: [], folders: [] }), AllServerSkills: all },
      },
    } as unknown as typeof window.go;
  };
  afterEach(() => {
    window.go = undefined as unknown as typeof window.go;
    (window as unknown as { runtime: unknown }).runtime = undefined;
  });

  it("shows a server's skills once the server gets ready while the page is open", async () => {
    let docsReady = false;
    let asked = 0;
    backend(async () => { asked++; return { skills: docsReady ? [notes] : [], errors: [] }; });
    (window as unknown as { runtime: unknown }).runtime = {
      EventsOnMultiple: (name: string, fn: (p: unknown) => void) => { listeners[name] = fn; return () => delete listeners[name]; },
    };
    render(<SkillsPage />);
    expect(await screen.findByText('No running server offers skills.')).toBeTruthy();
    const before = asked;

    // docs-server, added from the CLI after the page opened, starts.
    docsReady = true;
    act(() => listeners[EventServerStatus]!({ name: 'docs', state: 'starting', seq: 1 } as gui.ServerView));
    await act(async () => {});
    expect(asked).toBe(before); // not ready yet: nothing to ask
    act(() => listeners[EventServerStatus]!({ name: 'docs', state: 'ready', seq: 2 } as gui.ServerView));
    expect(await screen.findByText('release-notes')).toBeTruthy();
    expect(screen.getByRole('listitem', { name: 'docs/release-notes' }).textContent).toMatch(/server docs · 120 B in 1 file/);
  });

  it('names a server whose skills could not be listed, with what to do, beside the skills of the others', async () => {
    backend(async () => ({ skills: [notes], errors: [{ server: 'index', error: "index could not list its skills; its tools still work. Open the server's log on the Servers page to see why.\nindex: skills/list: the skills index is being rebuilt" }] }));
    render(<SkillsPage />);
    const failed = await screen.findByRole('status', { name: 'Skills of index' });
    expect(failed.querySelector('.error-sentence')?.textContent).toBe("index could not list its skills; its tools still work. Open the server's log on the Servers page to see why.");
    expect(failed.querySelector('details pre')?.textContent).toBe('index: skills/list: the skills index is being rebuilt');
    expect(screen.getByRole('listitem', { name: 'docs/release-notes' })).toBeTruthy();
    expect(screen.queryByText('No running server offers skills.')).toBeNull();
  });

  it("shows what a skill on this computer breaks of the specification, loaded as Claude Code loads it", async () => {
    const apify: host.LocalSkill = {
      server: 'skills@claude', name: 'apify-automation', description: 'Automate Apify.', folder: '/h/.claude/skills/apify-automation', source: '/h/.claude/skills',
      app: 'Claude Code', scope: 'personal', size: 10, files: [{ path: 'SKILL.md', size: 10 }], state: 'accepted', on: true, trusted: false, own: false,
      warnings: ['its name "Apify Automation" is not its folder\'s name "apify-automation"; it goes by the folder\'s name, as Claude Code names it'],
    };
    backend(async () => ({ skills: [], errors: [] }), [apify]);
    render(<SkillsPage />);
    const row = await screen.findByRole('listitem', { name: 'skills@claude/apify-automation' });
    expect(row.textContent).toContain('Note: its name "Apify Automation" is not its folder\'s name "apify-automation"');
  });
});
