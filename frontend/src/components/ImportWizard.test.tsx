import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { configFiles, ImportWizard } from './ImportWizard';
import type { gui } from '../backend';

const found = (app: string, path: string, scope = 'user'): gui.DiscoveredConfig =>
  ({ app, path, scope, servers: 2, needsAttention: 0, imported: 0, problem: '', summary: '2 servers' }) as gui.DiscoveredConfig;

// The configs 'servers discover' finds on a Linux machine with VS Code,
// Cursor (user and project), Claude Code and two VS Code forks.
const machine = [
  found('VS Code', '/home/me/.config/Code/User/mcp.json'),
  found('VS Code', '/home/me/.config/Code/User/settings.json'),
  found('Cursor', '/home/me/.cursor/mcp.json'),
  found('Cursor', '/home/me/work/app/.cursor/mcp.json', 'project'),
  found('Claude Code', '/home/me/.claude.json'),
  found('Kiro', 'C:\\Users\\me\\.kiro\\settings\\mcp.json'),
];

describe('configFiles', () => {
  it.each([
    ['each by its file name when that tells them apart', machine,
      ['mcp.json', 'settings.json', 'mcp.json', 'mcp.json', '.claude.json', 'mcp.json']],
    ['with the folders that tell two files of the same name apart',
      [found('Roo Code', '/home/me/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json'),
        found('Roo Code', '/home/me/.roo-old/settings/mcp_settings.json')],
      ['rooveterinaryinc.roo-cline/settings/mcp_settings.json', '.roo-old/settings/mcp_settings.json']],
    ['the whole path when nothing else does', [found('X', '/a/mcp.json'), found('X', '/a/mcp.json')], ['a/mcp.json', 'a/mcp.json']],
    ['nothing found', [], []],
  ])('%s', (_, configs, want) => {
    expect(configFiles(configs)).toEqual(want);
  });
});

afterEach(() => {
  window.go = undefined as unknown as typeof window.go;
});

describe('ImportWizard', () => {
  it('names the file of each config found, so VS Code’s two files are two different choices', async () => {
    window.go = {
      gui: { ServersPage: { DiscoverConfigs: async () => machine } },
    } as unknown as typeof window.go;
    render(<ImportWizard onClose={() => {}} />);
    const mcp = await screen.findByRole('button', { name: /^VS Code · mcp\.json · 2 servers$/ });
    const settings = screen.getByRole('button', { name: /^VS Code · settings\.json · 2 servers$/ });
    expect(mcp).not.toBe(settings);
    expect(mcp.title).toContain('/home/me/.config/Code/User/mcp.json');
    const names = screen.getAllByRole('button', { name: / · 2 servers$/ }).map((b) => b.textContent);
    expect(names).toHaveLength(machine.length);
    expect(new Set(names).size).toBe(names.length); // no two choices read the same
  });
});
