import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AgentsPage } from './AgentsPage';
import { importable, outcome } from './AgentImport';
import { nameProblem } from '../../agents';
import type { host } from '../../backend';

const agent = (a: Partial<host.Agent>): host.Agent => ({ id: 'x', name: 'X', servers: [], ...a });

/** bind stands in for the Go side the Agents page calls, recording what it was asked. */
function bind(agents: host.Agent[], files: host.AgentFile[] = []) {
  const calls: { method: string; args: unknown[] }[] = [];
  const rec = <T,>(method: string, answer: (...args: unknown[]) => T) => async (...args: unknown[]) => {
    calls.push({ method, args });
    return answer(...args);
  };
  window.go = {
    gui: {
      Window: { Info: async () => ({ name: 'Switchboard', version: 'dev', dataDir: '' }) },
      AgentsPage: {
        Agents: rec('Agents', () => agents),
        SaveAgent: rec('SaveAgent', (a) => a),
        DuplicateAgent: rec('DuplicateAgent', (id) => ({ ...agents.find((a) => a.id === id)!, id: 'copy', name: `${agents.find((a) => a.id === id)!.name} copy` })),
        FindAgentFiles: rec('FindAgentFiles', () => files),
        ImportAgentFiles: rec('ImportAgentFiles', (paths) => files.map((f) => ((paths as string[]).includes(f.path) ? { ...f, imported: 'new-id' } : f))),
        DeleteAgent: rec('DeleteAgent', () => undefined),
      },
      SettingsPage: { ChatSettings: async () => ({ providers: [{ name: 'Fake', defaultModel: 'fake-1' }], defaultProvider: 'Fake' }) },
      ToolsPage: { Tools: async () => ({ tools: [] }) },
      ServersPage: {
        Servers: async () => [{ name: 'alpha', toolCount: 2, state: 'ready' }],
        ConfigError: async () => '',
        ServerSkills: async () => ({ offered: false, skills: [] }),
      },
    },
  } as unknown as typeof window.go;
  (window as unknown as { runtime: unknown }).runtime = { EventsOnMultiple: () => () => {} };
  return calls;
}

describe('AgentsPage', () => {
  afterEach(() => {
    cleanup();
    window.go = undefined as unknown as typeof window.go;
    (window as unknown as { runtime: unknown }).runtime = undefined;
  });

  it('marks a server that is not set up, and a provider that is gone', async () => {
    bind([agent({ id: 'd1', name: 'Deleg', servers: ['alpha', 'beta'], missing: ['beta'], delegate: true }),
      agent({ id: 'g1', name: 'Ghost', provider: 'Removed', model: 'gone', providerMissing: true })]);
    render(<AgentsPage />);
    const tags = await screen.findByLabelText('Servers of Deleg');
    expect(tags.textContent).toBe('alphabeta (not set up)');
    expect(within(tags).getByText('beta (not set up)').className).toContain('missing');
    expect(screen.getByRole('listitem', { name: 'Ghost' }).textContent).toContain('provider Removed not set up');
  });

  it('lists a missing server in the form, where it can be unticked, and shows a gone provider as such', async () => {
    const calls = bind([agent({ id: 'g1', name: 'Ghost', servers: ['alpha', 'beta'], missing: ['beta'], provider: 'Removed', model: 'gone', providerMissing: true,
      policies: { 'beta__*': 'allow', 'alpha__*': 'ask' } })]);
    render(<AgentsPage />);
    fireEvent.click(within(await screen.findByRole('listitem', { name: 'Ghost' })).getByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit Ghost' });
    const provider = within(form).getByLabelText('Provider') as HTMLSelectElement;
    await waitFor(() => expect(provider.selectedOptions[0]?.textContent).toBe('Removed (not set up)'));
    expect(form.textContent).toContain('The provider Removed is not set up');
    const beta = within(form).getByRole('checkbox', { name: /^beta not set up/ }) as HTMLInputElement;
    expect(beta.checked).toBe(true);
    fireEvent.click(beta);
    fireEvent.change(provider, { target: { value: 'Fake' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save agent' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'SaveAgent')).toBe(true));
    const saved = calls.find((c) => c.method === 'SaveAgent')!.args[0] as host.Agent;
    expect(saved.servers).toEqual(['alpha']);
    expect(saved.policies).toEqual({ 'alpha__*': 'ask' }); // the removed server's policy goes with it
    expect([saved.provider, saved.model]).toEqual(['Fake', '']);
  });

  it('shows the tools an agent names that its server does not offer, ticked, so they can be unticked', async () => {
    const calls = bind([agent({ id: 'r1', name: 'Researcher', servers: ['alpha'], tools: ['alpha__ech0'] })]);
    const gui = (window.go as unknown as { gui: Record<string, Record<string, unknown>> }).gui;
    gui.ToolsPage!.Tools = async () => ({ tools: [{ name: 'alpha__echo', server: 'alpha', tool: 'echo' }, { name: 'alpha__sum', server: 'alpha', tool: 'sum' }] });
    gui.ServersPage!.Servers = async () => [{ name: 'alpha', toolCount: 2, state: 'ready', error: '' }];
    gui.Window!.ConfigError = async () => '';
    render(<AgentsPage />);
    fireEvent.click(within(await screen.findByRole('listitem', { name: 'Researcher' })).getByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit Researcher' });
    const typo = await within(form).findByRole('checkbox', { name: /^ech0 alpha does not offer it/ }) as HTMLInputElement;
    expect(typo.checked).toBe(true);
    expect(typo.closest('label')!.textContent).toContain("its chats get none of this server's tools");
    expect(within(form).getByText('Only some tools (1 chosen)').closest('details')!.open).toBe(true);
    fireEvent.click(typo);
    expect(within(form).getByText('Only some tools (all chosen)')).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'Save agent' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'SaveAgent')).toBe(true));
    expect((calls.find((c) => c.method === 'SaveAgent')!.args[0] as host.Agent).tools).toEqual([]);
  });

  it('keeps Import and New agent together at the head', async () => {
    bind([]);
    render(<AgentsPage />);
    const newAgent = await screen.findByRole('button', { name: 'New agent' });
    // One group beside the title: as three children of the space-between head, Import… sat alone in its middle.
    expect(newAgent.parentElement).toBe(screen.getByRole('button', { name: 'Import…' }).parentElement);
    expect(newAgent.parentElement).not.toBe(screen.getByRole('heading', { name: 'Agents' }).parentElement);
  });

  it('sets the tool mode, greyed out for a delegating agent', async () => {
    bind([agent({ id: 'c1', name: 'Coder', servers: ['alpha'], toolMode: 'code' })]);
    render(<AgentsPage />);
    fireEvent.click(within(await screen.findByRole('listitem', { name: 'Coder' })).getByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit Coder' });
    const mode = within(form).getByLabelText('Tool mode') as HTMLSelectElement;
    expect(mode.value).toBe('code');
    expect(mode.disabled).toBe(false);
    fireEvent.click(within(form).getByRole('checkbox', { name: /^Delegate/ }));
    expect(mode.disabled).toBe(true);
    expect(form.textContent).toContain('the tool mode does not apply');
  });

  it('refuses a name with a bidi override or over 64 characters before saving', async () => {
    expect(nameProblem('Research\u202eer')).toContain('U+202E');
    expect(nameProblem('x'.repeat(65))).toContain('shorten it to 64');
    expect(nameProblem('👩\u200d💻 Coder')).toBe('');
    bind([]);
    render(<AgentsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'New agent' }));
    const form = screen.getByRole('form', { name: 'New agent' });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'y'.repeat(300) } });
    expect(form.textContent).toContain('The name is 300 characters long');
    expect(within(form).getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(within(form).getByRole('button', { name: 'Save agent' }));
    expect(await within(form).findByText('1 problem: Name.')).toBeTruthy();
  });

  // The form says what is wrong the way the server editor does: under the
  // field, focus on it, a count by the button; never the browser's bubble.
  it('says an empty name under the field and focuses it', async () => {
    const calls = bind([]);
    render(<AgentsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'New agent' }));
    const form = screen.getByRole('form', { name: 'New agent' }) as HTMLFormElement;
    expect(form.noValidate).toBe(true);
    (within(form).getByRole('button', { name: 'Cancel' }) as HTMLElement).focus();
    fireEvent.submit(form);
    const name = within(form).getByLabelText('Name');
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(name.getAttribute('aria-describedby')!)!.textContent).toBe('Give the agent a name: the chat list and the New chat menu show it.');
    expect(within(form).getByText('1 problem: Name.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'SaveAgent')).toBe(false);
  });

  it('shows a server that failed as such, not as "0 tools", with the way to Servers', async () => {
    bind([]);
    const gui = (window.go as unknown as { gui: Record<string, Record<string, unknown>> }).gui;
    gui.ServersPage!.Servers = async () => [
      { name: 'alpha', toolCount: 2, state: 'ready', error: '' },
      { name: 'broken', toolCount: 0, state: 'error', error: 'nonexistent-binary was not found: install it, or give its full path as the command in Edit' },
    ];
    gui.Window!.ConfigError = async () => '';
    render(<AgentsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'New agent' }));
    const form = screen.getByRole('form', { name: 'New agent' });
    const broken = (await within(form).findByRole('checkbox', { name: /broken/ })).closest('.agent-server') as HTMLElement;
    expect(broken.textContent).not.toContain('0 tools');
    expect(broken.textContent).toContain('Error');
    expect(broken.textContent).toContain('nonexistent-binary was not found');
    expect(within(broken).getByRole('link', { name: 'Open Servers' }).getAttribute('href')).toBe('#/servers');
    expect(within(form).getByRole('checkbox', { name: /alpha/ }).closest('.agent-server')!.textContent).toContain('2 tools');
  });

  it('duplicates an agent and opens the copy', async () => {
    const calls = bind([agent({ id: 'r1', name: 'Researcher', servers: ['alpha'] })]);
    render(<AgentsPage />);
    fireEvent.click(within(await screen.findByRole('listitem', { name: 'Researcher' })).getByRole('button', { name: 'Duplicate' }));
    await screen.findByRole('form', { name: 'Edit Researcher copy' });
    expect(calls.find((c) => c.method === 'DuplicateAgent')?.args).toEqual(['r1']);
  });

  it('imports the Claude Code agents found, with their notes; a file that cannot be is not offered', async () => {
    const file = (f: Partial<host.AgentFile>): host.AgentFile => ({ path: '', source: 'Claude Code (personal)', agent: agent({}), notes: [], ...f });
    const files = [
      file({ path: '/h/.claude/agents/code-reviewer.md', agent: agent({ name: 'code-reviewer', servers: ['workspace', 'context7'], missing: ['context7'] }),
        notes: ['WebFetch is Claude Code\'s own, with no match here: left out'] }),
      file({ path: '/h/.claude/agents/planner.md', agent: agent({ name: 'planner' }), exists: true }),
      file({ path: '/h/.claude/agents/README.md', agent: agent({ name: '' }), problem: 'it has no frontmatter' }),
    ];
    expect(files.map(importable)).toEqual([true, false, false]);
    expect(outcome(files[1]!, false)).toContain('an agent of this name exists');
    const calls = bind([], files);
    render(<AgentsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Import…' }));
    const list = await screen.findByRole('list', { name: 'Agent files' });
    expect(within(list).getByLabelText('Notes on code-reviewer').textContent).toContain('WebFetch');
    expect(within(list).getByText('context7 (not set up)')).toBeTruthy();
    expect((within(list).getByRole('checkbox', { name: /planner/ }) as HTMLInputElement).disabled).toBe(true);
    expect(list.textContent).toContain('Skipped: it has no frontmatter');
    fireEvent.click(screen.getByRole('button', { name: 'Import 1 agent' }));
    await screen.findByText('Imported 1 agent.');
    expect(calls.find((c) => c.method === 'ImportAgentFiles')?.args).toEqual([['/h/.claude/agents/code-reviewer.md']]);
  });
});
