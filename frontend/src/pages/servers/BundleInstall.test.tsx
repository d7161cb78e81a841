import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { BundleInstall } from './BundleInstall';
import { confirming, installable, isBundle, problems, startValues } from '../../bundles';
import type { gui } from '../../backend';
import { welcome } from '../../welcome';

const opt = (o: Partial<gui.BundleOption>): gui.BundleOption => ({
  key: 'k', type: 'string', title: 'K', description: '', required: false, multiple: false, sensitive: false,
  hasMin: false, min: 0, hasMax: false, max: 0, values: [], kept: false, ...o,
});
const form = (options: gui.BundleOption[]) => ({ options } as unknown as gui.BundleForm);

describe('isBundle', () => {
  it.each([['a.mcpb', true], ['A.MCPB', true], ['old.dxt', true], ['config.json', false], ['x.mcpb.zip', false]])('%s → %s', (n, want) => {
    expect(isBundle(n)).toBe(want);
  });
});

describe('startValues', () => {
  it('starts from the defaults, with one empty field where there are none', () => {
    expect(startValues(form([opt({ key: 'a', values: ['x', 'y'] }), opt({ key: 'b' })]))).toEqual({ a: ['x', 'y'], b: [''] });
  });
});

describe('problems', () => {
  const f = form([
    opt({ key: 'key', title: 'API key', required: true, sensitive: true }),
    opt({ key: 'n', title: 'Limit', type: 'number', hasMin: true, min: 1, hasMax: true, max: 10 }),
  ]);
  it.each([
    [{ key: [''], n: ['5'] }, ['API key is required']],
    [{ key: ['s'], n: ['11'] }, ['Limit: 11 is outside 1–10']],
    [{ key: ['s'], n: ['x'] }, ['Limit: x is not a number']],
    [{ key: ['s'], n: ['10'] }, []],
  ])('%j', (values, want) => {
    expect(problems(f, values)).toEqual(want);
  });
  it('a sensitive value kept in the keyring is not required again', () => {
    expect(problems(form([opt({ key: 'key', title: 'API key', required: true, sensitive: true, kept: true })]), { key: [''] })).toEqual([]);
  });
});

describe('confirming', () => {
  const f = (signed: string, changes: gui.BundleChange[]) => ({ signed, changes } as unknown as gui.BundleForm);
  const signer = [{ what: 'signer', was: 'Unsigned', now: 'Signed by x' }];
  it.each([
    ['the same bundle', f('unsigned', []), false],
    ['another signer', f('self-signed', signer), true],
    ['a signature that does not match (never installable)', f('invalid', signer), false],
  ])('%s', (_, form, want) => {
    expect(confirming(form)).toBe(want);
  });
});

describe('installable', () => {
  const f = (o: Partial<gui.BundleForm>) => ({ refused: '', incompatible: '', signed: 'unsigned', ...o } as unknown as gui.BundleForm);
  it.each([
    ['nothing refuses it', f({}), true],
    ['an unsafe archive', f({ refused: 'unsafe bundle archive: entry "../x" leaves the bundle\'s folder; nothing was installed' }), false],
    ['another platform', f({ incompatible: 'it runs on darwin only' }), false],
    ['a signature that does not match', f({ signed: 'invalid' }), false],
  ])('%s', (_, form, want) => {
    expect(installable(form)).toBe(want);
  });
});

const bundleForm = (o: Partial<gui.BundleForm>): gui.BundleForm => ({
  token: '/home/u/Downloads/echo.mcpb', name: 'echo-full', displayName: 'Echo Full', version: '1.0.0', author: 'Probe', description: 'd', icon: '',
  signature: 'Unsigned: nobody vouches for it', signed: 'unsigned', incompatible: '', refused: '', warnings: [], installed: '',
  options: [opt({ key: 'cfg', type: 'file', title: 'Config file' })], tools: ['show'], toolInfo: [{ name: 'show', description: 'show argv/env' }], changes: [],
  ...o,
});

// backend stands in for the Go side's Bundles: the form InspectPath gives
// for each file (one opened in an earlier test, which the page opens when
// it mounts, never answers), what PreviewBundle answers, and which tokens
// were discarded.
function backend(forms: Record<string, gui.BundleForm>) {
  const calls = { discarded: [] as string[], previews: [] as Record<string, string[]>[] };
  window.go = {
    gui: {
      Window: { Info: async () => ({}) },
      Bundles: {
        InspectPath: (path: string) => path in forms ? Promise.resolve(forms[path]) : new Promise(() => undefined),
        PreviewBundle: async (_: string, values: Record<string, string[]>) => {
          calls.previews.push(values);
          const cfg = (values.cfg ?? []).filter((v) => v !== '');
          return { command: `python3 /d/bundles/echo-full/1.0.0/server/echo.py --cfg ${cfg.length > 0 ? cfg[0] : '""'}`, env: ['B_KEY'], missing: false, problem: '' };
        },
        DiscardBundle: async (token: string) => { calls.discarded.push(token); },
      },
    },
  } as unknown as typeof window.go;
  return calls;
}

describe('BundleInstall', () => {
  afterEach(() => { cleanup(); delete (window as { go?: unknown }).go; });

  it('shows the tools the bundle declares and the command it will run with the form\'s values', async () => {
    const calls = backend({ '/home/u/Downloads/echo.mcpb': bundleForm({}) });
    render(<BundleInstall />);
    act(() => welcome.fileOpened('/home/u/Downloads/echo.mcpb'));
    const form = await screen.findByRole('form', { name: 'Install Echo Full' });
    const tools = within(form).getByRole('region', { name: 'Declared tools' });
    expect(tools.textContent).toContain('show — show argv/env');
    const run = await within(form).findByLabelText('What it will run');
    expect(run.textContent).toContain('Will run python3 /d/bundles/echo-full/1.0.0/server/echo.py --cfg "" as echo-full');
    expect(run.textContent).toContain('Environment: B_KEY');
    fireEvent.change(within(form).getByLabelText('Config file'), { target: { value: '/home/u/c.json' } });
    await waitFor(() => { expect(within(form).getByLabelText('What it will run').textContent).toContain('--cfg /home/u/c.json'); });
    expect(calls.previews.at(-1)).toEqual({ cfg: ['/home/u/c.json'] });
  });

  it('says at once why a bundle cannot be installed, with Install disabled', async () => {
    backend({ '/home/u/Downloads/link.mcpb': bundleForm({ refused: 'unsafe bundle archive: entry "server/link" is a symbolic link; nothing was installed' }) });
    render(<BundleInstall />);
    act(() => welcome.fileOpened('/home/u/Downloads/link.mcpb'));
    const form = await screen.findByRole('form', { name: 'Install Echo Full' });
    expect(within(form).getByRole('alert').textContent).toBe('Switchboard does not install this bundle: unsafe bundle archive: entry "server/link" is a symbolic link; nothing was installed');
    expect((within(form).getByRole('button', { name: 'Install' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(form).queryByLabelText('What it will run')).toBeNull();
  });

  it('lets a form\'s bundle go when it is cancelled, replaced by another, or the page is left', async () => {
    const calls = backend({
      '/x/a.mcpb': bundleForm({ token: 'aa.mcpb' }), '/x/b.mcpb': bundleForm({ token: 'bb.mcpb', displayName: 'Second' }), '/x/c.mcpb': bundleForm({ token: 'cc.mcpb', displayName: 'Third' }),
    });
    const { unmount } = render(<BundleInstall />);
    act(() => welcome.fileOpened('/x/a.mcpb'));
    await screen.findByRole('form', { name: 'Install Echo Full' });
    act(() => welcome.fileOpened('/x/b.mcpb'));
    const second = await screen.findByRole('form', { name: 'Install Second' });
    expect(calls.discarded).toEqual(['aa.mcpb']);
    fireEvent.click(within(second).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => { expect(calls.discarded).toEqual(['aa.mcpb', 'bb.mcpb']); });
    act(() => welcome.fileOpened('/x/c.mcpb'));
    await screen.findByRole('form', { name: 'Install Third' });
    unmount();
    expect(calls.discarded).toEqual(['aa.mcpb', 'bb.mcpb', 'cc.mcpb']);
  });

  it('shows what will not work yet', async () => {
    backend({ '/x/uv.mcpb': bundleForm({ warnings: ['echo-uv runs "uv", which is not installed here (not on your PATH): install uv (https://docs.astral.sh/uv/), or its server will not start'] }) });
    render(<BundleInstall />);
    act(() => welcome.fileOpened('/x/uv.mcpb'));
    const form = await screen.findByRole('form', { name: 'Install Echo Full' });
    expect(within(form).getAllByRole('note').map((n) => n.textContent)).toContain('echo-uv runs "uv", which is not installed here (not on your PATH): install uv (https://docs.astral.sh/uv/), or its server will not start');
  });
});
