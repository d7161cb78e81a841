import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { askStart, choiceBlank, moreCursor, RegistryBrowse, uniqueServers } from './RegistryBrowse';
import type { gui, host } from '../backend';

const page = (nextCursor: string, servers: gui.RegistryServer[] = []) => ({ servers, nextCursor } as unknown as gui.RegistryList);

describe('moreCursor', () => {
  it.each([
    ['no page yet', [], { cursor: '', repeated: false }],
    ['the last page', [page('a'), page('')], { cursor: '', repeated: false }],
    ['a next page', [page('a'), page('b')], { cursor: 'b', repeated: false }],
    ['a cursor the registry gave before', [page('a'), page('b'), page('a')], { cursor: '', repeated: true }],
    ['the same cursor again at once', [page('again'), page('again')], { cursor: '', repeated: true }],
  ])('%s', (_, pages, want) => {
    expect(moreCursor(pages)).toEqual(want);
  });
});

const ask = (a: Partial<host.RegistryAsk>): host.RegistryAsk => ({ key: 'k', kind: 'env', description: '', required: false, secret: false, default: '', choices: [], ...a });
const server = (s: Partial<gui.RegistryServer>): gui.RegistryServer => ({
  name: 'io.github.example/x', title: '', description: 'd', version: '1.0.0', websiteUrl: '', repository: '', entryName: 'x', status: 'active',
  options: [], unsupported: '', ...s,
});

describe('askStart and choiceBlank', () => {
  it('prefills the defaults, never a secret one', () => {
    expect(askStart([ask({ key: 'host', default: 'localhost' }), ask({ key: 'port' }), ask({ key: 'token', secret: true, default: 'x' })])).toEqual({ host: 'localhost' });
  });
  it.each([
    ['a required choice without a default', ask({ required: true, choices: ['a'] }), 'Choose…'],
    ['an optional one', ask({ choices: ['a'] }), '(not set)'],
    ['one with a default', ask({ required: true, default: 'a', choices: ['a'] }), null],
  ])('%s', (_, a, want) => {
    expect(choiceBlank(a)).toBe(want);
  });
  it('lists a server a later page repeats once', () => {
    const a = server({ name: 'a' });
    expect(uniqueServers([page('x', [a, server({ name: 'b' })]), page('', [server({ name: 'a', version: '0.9' })])]).map((s) => s.name + s.version)).toEqual(['a1.0.0', 'b1.0.0']);
  });
});

const db = server({
  name: 'io.github.example/database-manager', entryName: 'database-manager',
  options: [{ index: 0, kind: 'oci', label: 'oci example/database-manager-mcp 3.1.0', asks: [
    ask({ key: 'db_type', kind: 'variable', required: true, description: 'Type of database', choices: ['postgres', 'mysql'] }),
    ask({ key: 'host', kind: 'argument', required: true, default: 'localhost', description: 'Database host' }),
    ask({ key: 'port', kind: 'argument', description: 'Database port' }),
  ] }],
});
const old = server({ name: 'io.github.example/old-forecast', entryName: 'old-forecast', status: 'deprecated', options: [{ index: 0, kind: 'npm', label: 'npm @legacy/old 0.9.5', asks: [] }] });
const gone = server({ name: 'io.github.example/malware', entryName: 'malware', status: 'deleted', options: [{ index: 0, kind: 'npm', label: 'npm @evil/malware 6.6.6', asks: [] }] });
const echo = server({ name: 'io.github.example/echo-full', entryName: 'echo-full', options: [{ index: 0, kind: 'mcpb', label: 'mcpb http://127.0.0.1:1/echo-full.mcpb 1.0.0', asks: [] }] });
const httpPkg = server({ name: 'io.github.example/http-pkg', unsupported: 'its npm package @example/http-pkg serves streamable-http itself' });
const form = {
  token: '/d/x.mcpb', name: 'echo-env', displayName: 'Echo Env', version: '1.2.0', author: 'A', description: '', icon: '', signature: 'Unsigned', signed: 'unsigned',
  incompatible: '', refused: '', warnings: [], installed: '', tools: [], toolInfo: [], changes: [],
  options: [{ key: 'api_key', type: 'string', title: 'API key', description: 'Key', required: true, multiple: false, sensitive: true, hasMin: false, min: 0, hasMax: false, max: 0, values: [], kept: false }],
} as unknown as gui.BundleForm;

// backend stands in for the Go side's registry: one page of servers, and
// what Preview, InspectBundle and Add were asked.
function backend() {
  const calls: { preview: gui.RegistryPick[]; add: gui.RegistryPick[] } = { preview: [], add: [] };
  window.go = {
    gui: {
      Window: { Info: async () => ({}), ConfigError: async () => '' },
      ServersPage: { Servers: async () => [] },
      MCPRegistry: {
        Search: async () => ({ servers: [db, old, gone, echo, httpPkg], nextCursor: '', stale: false, fetchedAt: '', age: '', why: '', registry: 'http://127.0.0.1:1' }),
        Preview: async (p: gui.RegistryPick) => {
          calls.preview.push(p);
          if (!p.values.db_type) return { command: '', name: '', remote: false, bundle: false, env: [], headers: [], problem: '', missing: true, fill: ['db_type'] };
          return { command: `docker run … --host ${p.values.host} mydb`, name: p.entryName || 'database-manager', remote: false, bundle: false, env: [], headers: [], problem: '', missing: false, fill: [] };
        },
        InspectBundle: async () => form,
        Add: async (p: gui.RegistryPick) => {
          calls.add.push(p);
          return { name: p.name === old.name ? 'old-forecast' : 'echo-env', warning: p.name === old.name ? 'io.github.example/old-forecast is deprecated in the registry' : '' };
        },
      },
    },
  } as unknown as typeof window.go;
  (window as unknown as { runtime: unknown }).runtime = { EventsOnMultiple: () => () => {} };
  return calls;
}

const details = async (name: string) => {
  const item = await screen.findByRole('listitem', { name });
  // Opening it asks the Go side (Preview, InspectBundle): its answer is awaited here.
  await act(async () => { fireEvent.click(within(item).getByRole('button', { name: 'Details' })); });
  return within(item).getByRole('form', { name: `Add ${name}` });
};

describe('RegistryBrowse', () => {
  it('shows optional fields and prefilled defaults; a required choice without a default starts on Choose…', async () => {
    const calls = backend();
    render(<RegistryBrowse />);
    const f = await details(db.name);
    const choice = within(f).getByLabelText('db_type') as HTMLSelectElement;
    expect(choice.value).toBe('');
    expect(choice.selectedOptions[0]?.textContent).toBe('Choose…');
    expect(choice.validity.valueMissing).toBe(true); // Add is held until one is chosen
    expect((within(f).getByLabelText('host') as HTMLInputElement).value).toBe('localhost');
    const port = within(f).getByLabelText('port') as HTMLInputElement;
    expect(port.required).toBe(false);
    expect(f.textContent).toContain('(argument, optional) Database port');
    await within(f).findByText('Fill in db_type (*) to see the exact command it will run.');
    fireEvent.change(choice, { target: { value: 'postgres' } });
    fireEvent.change(within(f).getByLabelText('host'), { target: { value: 'db.internal' } });
    fireEvent.change(port, { target: { value: '5432' } });
    fireEvent.change(within(f).getByLabelText('Server name'), { target: { value: 'db' } });
    await within(f).findByText('docker run … --host db.internal mydb');
    expect(calls.preview.at(-1)).toEqual({ name: db.name, option: 0, values: { db_type: 'postgres', host: 'db.internal', port: '5432' }, bundle: {}, entryName: 'db' });
    expect(within(f).getByTestId('registry-preview').textContent).toContain('as db');
  });

  it('marks a deprecated server, adds it with its warning, and never offers Add for a deleted one', async () => {
    const calls = backend();
    render(<RegistryBrowse />);
    const oldItem = await screen.findByRole('listitem', { name: old.name });
    expect(within(oldItem).getByText('deprecated')).toBeTruthy();
    const f = await details(old.name);
    expect(within(f).getByRole('note').textContent).toMatch(/^Deprecated in the registry/);
    fireEvent.click(within(f).getByRole('button', { name: 'Add' }));
    await screen.findByText(/Added old-forecast/);
    expect(screen.getByRole('status').textContent).toContain('is deprecated in the registry');
    expect(calls.add).toHaveLength(1);

    const g = await details(gone.name);
    expect(within(screen.getByRole('listitem', { name: gone.name })).getByText('deleted')).toBeTruthy();
    expect((within(g).getByRole('button', { name: 'Add' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(g).getByRole('alert').textContent).toMatch(/Deleted from the registry/);
  });

  it('says why a server offers nothing to add', async () => {
    backend();
    render(<RegistryBrowse />);
    const f = await details(httpPkg.name);
    expect(within(f).getByRole('alert').textContent).toBe('Nothing here can run on this computer: its npm package @example/http-pkg serves streamable-http itself.');
  });

  it("shows an mcpb package's own form (its settings, the name it installs as) and adds it with the answers", async () => {
    const calls = backend();
    render(<RegistryBrowse />);
    const f = await details(echo.name);
    const key = await within(f).findByLabelText('API key');
    expect(within(f).getByTestId('registry-preview').textContent).toMatch(/^Downloads http:\/\/127\.0\.0\.1:1\/echo-full\.mcpb, checks it against the registry's SHA-256 and installs the bundle Echo Env 1\.2\.0 as echo-env/);
    expect(within(f).queryByText(/Connects to/)).toBeNull();
    expect(within(f).queryByLabelText('Server name')).toBeNull();
    expect((key as HTMLInputElement).validity.valueMissing).toBe(true); // Add is held until it is filled
    fireEvent.click(within(f).getByRole('button', { name: 'Add' }));
    expect(calls.add).toHaveLength(0);
    fireEvent.change(key, { target: { value: 'sk-1' } });
    fireEvent.click(within(f).getByRole('button', { name: 'Add' }));
    await screen.findByText(/Added echo-env/);
    expect(calls.add[0]).toEqual({ name: echo.name, option: 0, values: {}, bundle: { api_key: ['sk-1'] }, entryName: '' });
  });
});
