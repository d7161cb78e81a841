import { describe, expect, it } from 'vitest';
import { attentionFirst, needsAttention, plainLine } from './servers';
import { effectLabel } from './safety';
import { sentence } from './errors';
import { downloads } from './pages/servers/TestConnection';
import { sectionFromHash } from './pages/settings/SettingsPage';

describe('what the Servers, Tools and Settings pages say', () => {
  it('shows a Markdown description as one line of plain text', () => {
    expect(plainLine('Everything Reference Server: # Everything Server – Server Instructions')).toBe('Everything Reference Server: Everything Server – Server Instructions');
    expect(plainLine('## Tools\n\n- **fetch** a [page](https://x.test) as `text`\n> quoted _here_')).toBe('Tools fetch a page as text quoted here');
  });

  it('lists the servers that need attention first, in their order', () => {
    const s = [{ name: 'a', state: 'ready' }, { name: 'b', state: 'error' }, { name: 'c', state: 'needs-login' }, { name: 'd', state: 'disabled' }];
    expect(attentionFirst(s).map((x) => x.name)).toEqual(['b', 'c', 'a', 'd']);
    expect(s.filter(needsAttention).length).toBe(2);
  });

  it('calls a tool destructive only when it says so; one that says nothing may change things', () => {
    expect(effectLabel({ readOnly: true, destructive: false })).toBe('read-only');
    expect(effectLabel({ readOnly: false, destructive: true })).toBe('destructive');
    expect(effectLabel({ readOnly: false, destructive: false })).toBe('may change things');
  });

  it('starts an error with a capital letter, but not a name or a path', () => {
    expect(sentence('no model provider is set up: add one')).toBe('No model provider is set up: add one');
    expect(sentence('"fake" refused')).toBe('"fake" refused');
    expect(sentence('/usr/bin/x: not found')).toBe('/usr/bin/x: not found');
  });

  it('says a test connection downloads a package only for npx or uvx commands', () => {
    expect(downloads('npx -y @modelcontextprotocol/server-memory')).toBe(true);
    expect(downloads('/usr/local/bin/uvx mcp-server-git')).toBe(true);
    expect(downloads('')).toBe(false); // an HTTP server has no command here
    expect(downloads('/opt/servers/github-mcp-server stdio')).toBe(false);
  });

  it('follows a link to a Settings section', () => {
    expect(sectionFromHash('#/settings/secrets')).toBe('secrets');
    expect(sectionFromHash('#/settings/models')).toBe('models');
    expect(sectionFromHash('#/settings')).toBe('');
    expect(sectionFromHash('#/settings/nothing')).toBe('');
  });
});
