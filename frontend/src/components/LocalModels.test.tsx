import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { formatBytes, LocalModels } from './LocalModels';
import type { gui } from '../backend';

const big: gui.LocalModelView = {
  name: 'qwen3-1.7b', title: 'Qwen3 1.7B', file: 'Qwen3-1.7B-Q4_K_M.gguf', size: 1_107_409_472, ram: 2_361_506_368,
  licence: 'Apache-2.0', goodFor: 'Everyday chat with tools', default: true, chosen: false, installed: false,
  path: '/data/models/Qwen3-1.7B-Q4_K_M.gguf', partial: 0, downloading: false,
};
const small: gui.LocalModelView = {
  ...big, name: 'qwen3-0.6b', title: 'Qwen3 0.6B', file: 'Qwen3-0.6B-Q4_K_M.gguf', size: 396_705_472, ram: 1_650_802_368,
  goodFor: 'Small machines', default: false, path: '/data/models/Qwen3-0.6B-Q4_K_M.gguf',
};

// backend stands in for the Go side: the catalog it lists, the calls it
// got, and the window's events the test sends.
function backend(models: gui.LocalModelView[], downloadUrl = '', found: gui.FoundModelView[] = []) {
  const state = { models: models.map((m) => ({ ...m })), downloadUrl, found };
  const calls: string[] = [];
  let listener: ((p: gui.ModelDownload) => void) | undefined;
  window.go = {
    gui: {
      Window: { Info: async () => ({}) },
      SettingsPage: {
        LocalModels: async () => ({ models: state.models.map((m) => ({ ...m })), downloadUrl: state.downloadUrl }),
        DownloadLocalModel: async (n: string) => { calls.push(`download ${n}`); },
        CancelLocalModelDownload: async (n: string) => { calls.push(`cancel ${n}`); },
        DiscardLocalModelDownload: async (n: string) => { calls.push(`discard ${n}`); },
        RemoveLocalModel: async (n: string) => { calls.push(`remove ${n}`); state.models = state.models.filter((m) => m.name !== n || !m.chosen).map((m) => (m.name === n ? { ...m, installed: false } : m)); },
        FoundLocalModels: async () => state.found.map((f) => ({ ...f })),
        AddLocalModelFile: async (path: string) => {
          calls.push(`add ${path}`);
          const f = state.found.find((x) => x.path === path)!;
          const m = { ...big, name: f.name, title: f.name, file: 'blob', size: f.size, ram: 0, default: false, chosen: true, installed: true, path };
          state.models.push(m);
          f.added = f.name;
          return m;
        },
        ChooseLocalModelFile: async () => {
          calls.push('choose');
          const m = { ...big, name: 'Mine', title: 'Mine', file: 'Mine.gguf', size: 5000, ram: 0, default: false, chosen: true, installed: true, path: '/home/me/Mine.gguf' };
          state.models.push(m);
          return m;
        },
        SetModelDownloadURL: async (u: string) => {
          if (u.startsWith('ftp:')) throw new Error('download URL "ftp://x": use https://, http://, file:// or a folder on this computer');
          calls.push(`url ${u}`);
          state.downloadUrl = u;
        },
      },
    },
  } as unknown as typeof window.go;
  (window as unknown as { runtime: unknown }).runtime = {
    EventsOnMultiple: (name: string, fn: (p: gui.ModelDownload) => void) => {
      if (name === 'models:download') listener = fn;
      return () => { listener = undefined; };
    },
  };
  let seq = 0;
  const emit = (p: Partial<gui.ModelDownload> & { name: string; state: string }) =>
    act(() => listener?.({ done: 0, total: 0, error: '', seq: ++seq, ...p }));
  return { state, calls, emit };
}

afterEach(() => {
  window.go = undefined as unknown as typeof window.go;
  (window as unknown as { runtime: unknown }).runtime = undefined;
});

describe('LocalModels', () => {
  it('offers the catalog with the default chosen, downloads only on a click, shows progress, and ends ready', async () => {
    const b = backend([big, small]);
    const ready = vi.fn();
    render(<LocalModels onReady={ready} />);
    const def = await screen.findByRole('radio', { name: /Qwen3 1.7B/ });
    expect((def as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('radio', { name: /Qwen3 0.6B/ }) as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText(/1\.1 GB download · needs about 2\.4 GB of memory · Apache-2\.0/)).toBeTruthy();
    expect(b.calls).toEqual([]); // nothing downloads by itself

    fireEvent.click(screen.getByRole('radio', { name: /Qwen3 0.6B/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Download Qwen3 0.6B (397 MB)' }));
    await waitFor(() => expect(b.calls).toEqual(['download qwen3-0.6b']));

    b.emit({ name: 'qwen3-0.6b', state: 'downloading', done: 198_352_736, total: 396_705_472 });
    b.emit({ name: 'qwen3-0.6b', state: 'downloading', done: 3_967_054, total: 396_705_472, seq: 0 }); // an older event, delivered late
    const bar = screen.getByRole('progressbar', { name: 'Downloading Qwen3 0.6B' });
    expect((bar as HTMLProgressElement).value).toBe(198352736);
    expect(screen.getByText('198 MB of 397 MB (50%)')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel the download of Qwen3 0.6B' })); // the clicked button is gone; focus is not lost
    fireEvent.click(screen.getByRole('button', { name: 'Cancel the download of Qwen3 0.6B' }));
    await waitFor(() => expect(b.calls).toContain('cancel qwen3-0.6b'));

    b.state.models[1]!.installed = true;
    b.emit({ name: 'qwen3-0.6b', state: 'ready', done: 396_705_472, total: 396_705_472 });
    expect(await screen.findByText('Qwen3 0.6B is ready.')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(ready).toHaveBeenCalledWith(expect.objectContaining({ name: 'qwen3-0.6b', installed: true }));
  });

  it('says what went wrong and offers Retry; a cancelled download offers to resume', async () => {
    const b = backend([big]);
    render(<LocalModels />);
    fireEvent.click(await screen.findByRole('button', { name: /^Download Qwen3 1.7B/ }));
    // The Go side sends the sentence, then the detail (host.DownloadError through host.Plain).
    b.emit({ name: 'qwen3-1.7b', state: 'failed', error: 'Could not download Qwen3 1.7B: huggingface.co cannot be found.\ncould not download Qwen3 1.7B: Get "https://huggingface.co/x.gguf": dial tcp: lookup huggingface.co: no such host' });
    const alert = await screen.findByRole('alert');
    expect(alert.querySelector('.error-sentence')?.textContent).toBe('Could not download Qwen3 1.7B: huggingface.co cannot be found.');
    expect(alert.querySelector('details')?.open).toBe(false); // dial tcp… waits behind a disclosure
    // Beside it, the ways on: Retry, a GGUF file of one's own, a mirror (and no "see Settings").
    expect(screen.getByRole('button', { name: 'Choose a GGUF file…' })).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Model download URL' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/Settings →/);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(b.calls).toEqual(['download qwen3-1.7b', 'download qwen3-1.7b']));
    expect(screen.queryByRole('alert')).toBeNull();

    b.state.models[0]!.partial = 300_000_000;
    b.emit({ name: 'qwen3-1.7b', state: 'cancelled', done: 300_000_000, total: big.size });
    expect(await screen.findByRole('button', { name: 'Resume download (300 MB of 1.1 GB here)' })).toBeTruthy();
  });

  it('in Settings: removes after confirming, discards a partial file, chooses a GGUF file and saves the download URL', async () => {
    const b = backend([{ ...big, installed: true }, { ...small, partial: 1000 }], '');
    render(<LocalModels manage />);
    expect(await screen.findByText('Qwen3 1.7B is ready.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Qwen3 1.7B' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Remove Qwen3 1.7B?' });
    expect(confirm.textContent).toMatch(/Delete Qwen3 1.7B \(1.1 GB\) from this computer\?/);
    expect(b.calls).toEqual([]);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('button', { name: /^Download Qwen3 1.7B/ })).toBeTruthy();
    expect(b.calls).toEqual(['remove qwen3-1.7b']);

    fireEvent.click(screen.getByRole('radio', { name: /Qwen3 0.6B/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Discard the partial download' }));
    await waitFor(() => expect(b.calls).toContain('discard qwen3-0.6b'));

    fireEvent.click(screen.getByRole('button', { name: 'Choose a GGUF file…' }));
    const files = await screen.findByRole('list', { name: 'GGUF files you chose' });
    expect(files.textContent).toMatch(/Mine.*\/home\/me\/Mine\.gguf/);

    const url = screen.getByLabelText(/Download URL/);
    fireEvent.change(url, { target: { value: 'ftp://x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save download URL' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/use https:\/\//);
    fireEvent.change(url, { target: { value: ' https://mirror.example/models/ ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save download URL' }));
    await screen.findByText('Saved');
    expect(b.calls).toContain('url https://mirror.example/models/');
  });

  it('formats sizes as download sites do, by the CLI\'s rule (app/localmodel/testdata/sizes.json)', () => {
    const table = JSON.parse(readFileSync(resolve(__dirname, '../../../app/localmodel/testdata/sizes.json'), 'utf8')) as [number, string][];
    expect(table.length).toBeGreaterThan(10);
    expect(table.map(([n]) => formatBytes(n))).toEqual(table.map(([, want]) => want));
  });

  it('keeps every running download in view with its Cancel, whichever model is selected', async () => {
    const b = backend([big, small]);
    render(<LocalModels />);
    fireEvent.click(await screen.findByRole('button', { name: /^Download Qwen3 1.7B/ }));
    b.emit({ name: 'qwen3-1.7b', state: 'downloading', done: 110_000_000, total: big.size });
    fireEvent.click(screen.getByRole('radio', { name: /Qwen3 0.6B/ }));
    fireEvent.click(screen.getByRole('button', { name: /^Download Qwen3 0.6B/ }));
    b.emit({ name: 'qwen3-0.6b', state: 'downloading', done: 39_700_000, total: small.size });
    // The selected model's download, and the other one, each with its bar and Cancel.
    expect(screen.getByRole('progressbar', { name: 'Downloading Qwen3 0.6B' })).toBeTruthy();
    const other = screen.getByRole('list', { name: 'Other downloads' });
    expect(within(other).getByRole('progressbar', { name: 'Downloading Qwen3 1.7B' })).toBeTruthy();
    expect(other.textContent).toMatch(/110 MB of 1\.1 GB \(9%\)/);
    fireEvent.click(within(other).getByRole('button', { name: 'Cancel the download of Qwen3 1.7B' }));
    await waitFor(() => expect(b.calls).toContain('cancel qwen3-1.7b'));
  });

  it('with downloadsOnly (a model already chosen) shows the downloads alone, one still running with its Cancel', async () => {
    const b = backend([{ ...big, installed: true }, { ...small, downloading: true, partial: 1000 }]);
    render(<LocalModels downloadsOnly />);
    const list = await screen.findByRole('list', { name: 'Model downloads' });
    expect(within(list).getByRole('progressbar', { name: 'Downloading Qwen3 0.6B' })).toBeTruthy();
    expect(screen.queryByRole('radio')).toBeNull();
    b.emit({ name: 'qwen3-0.6b', state: 'downloading', done: 198_352_736, total: small.size });
    expect(list.textContent).toMatch(/198 MB of 397 MB/);
    b.state.models[1]!.installed = true;
    b.emit({ name: 'qwen3-0.6b', state: 'ready', done: small.size, total: small.size });
    expect(await within(list).findByText('Qwen3 0.6B is ready.')).toBeTruthy();
  });

  it('offers the models Ollama and LM Studio keep here, and adds one as it is', async () => {
    const blob = '/home/me/.ollama/models/blobs/sha256-7260d7';
    const b = backend([big], '', [
      { name: 'qwen3:0.6b', app: 'Ollama', path: blob, size: 522_000_000, added: '' },
      { name: 'Phi-2.Q4', app: 'LM Studio', path: '/home/me/.lmstudio/models/a/b/Phi-2.Q4.gguf', size: 1_600_000_000, added: 'Phi-2.Q4' },
    ]);
    const ready = vi.fn();
    render(<LocalModels onReady={ready} />);
    const found = await screen.findByRole('list', { name: 'Models found on this computer' });
    expect(found.textContent).toMatch(/qwen3:0\.6b.*Ollama.*522 MB/);
    expect(found.textContent).toMatch(/Phi-2\.Q4.*added as Phi-2\.Q4/);
    fireEvent.click(within(found).getByRole('button', { name: 'Add qwen3:0.6b from Ollama' }));
    await waitFor(() => expect(b.calls).toEqual([`add ${blob}`]));
    await waitFor(() => expect(found.textContent).toMatch(/added as qwen3:0\.6b/));
    await waitFor(() => expect(ready).toHaveBeenCalledWith(expect.objectContaining({ name: 'qwen3:0.6b', chosen: true })));
    expect(await screen.findByRole('list', { name: 'GGUF files you chose' })).toBeTruthy();
  });
});
