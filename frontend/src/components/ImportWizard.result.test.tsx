import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { ImportWizard } from './ImportWizard';

const item = (name: string, outcome: string, renameTo = '') => ({
  name, outcome, default: outcome === 'conflicting' ? 'keep' : 'replace', renameTo, changes: [], secrets: [], problems: [], target: 'npx x', disabled: false,
});

afterEach(() => {
  window.go = undefined as unknown as typeof window.go;
});

// After Import the preview's "new" and its add/skip choices describe a
// state that is gone: the table gives way to what became of each server.
describe('ImportWizard after Import', () => {
  it('replaces the preview with what became of each server', async () => {
    const items = [item('everything', 'added'), item('filesystem', 'added'), item('memory', 'conflicting', 'memory-2'), item('broken', 'invalid')];
    window.go = {
      gui: {
        ServersPage: {
          DiscoverConfigs: async () => [],
          PreviewImport: async () => ({ items, problems: [], inputs: [] }),
          ApplyImport: async () => 1,
          Servers: async () => [],
        },
        Window: { ConfigError: async () => '' },
      },
    } as unknown as typeof window.go;
    render(<ImportWizard onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText('Config JSON, TOML or YAML'), { target: { value: '{"mcpServers": {}}' } });
    const table = await screen.findByRole('table', { name: 'Import preview' });
    fireEvent.change(within(table).getByLabelText('Action for filesystem'), { target: { value: 'keep' } });
    fireEvent.click(screen.getByRole('button', { name: 'Import 1 server' }));
    const result = await screen.findByRole('list', { name: 'Import result' });
    expect(within(result).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'everything: imported', 'filesystem: skipped', 'memory: not imported: the existing one is kept', 'broken: not imported: it has problems (listed above)',
    ]);
    expect(screen.queryByRole('table', { name: 'Import preview' })).toBeNull();
    expect(screen.queryByRole('combobox')).toBeNull();
    // Editing the config again brings a fresh preview back.
    fireEvent.change(screen.getByLabelText('Config JSON, TOML or YAML'), { target: { value: '{"mcpServers": {"x": {}}}' } });
    await waitFor(() => expect(screen.getByRole('table', { name: 'Import preview' })).toBeTruthy());
  });
});
