import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Providers } from './Providers';

// The provider form against a stand-in of the Go side whose settings make
// the first provider saved the default, as chat.Settings.Put does.
describe('Providers', () => {
  type Row = { name: string; kind: string; baseUrl: string; default: boolean };
  let rows: Row[] = [];
  const calls: string[] = [];
  function bind(models: (name: string) => Promise<unknown[]>) {
    rows = [];
    calls.length = 0;
    const page: Record<string, unknown> = {
      ChatSettings: async () => ({ providers: rows.map((r) => ({ ...r, defaultModel: '', hasKey: false, keyName: '', images: '', imagesDefault: false, audio: '', audioDefault: false })) }),
      DetectOllama: async () => false,
      SaveProvider: async (p: { name: string; kind: string; baseUrl: string }) => {
        calls.push(`save ${p.name}`);
        rows = [...rows.filter((r) => r.name !== p.name), { name: p.name, kind: p.kind, baseUrl: p.baseUrl, default: rows.every((r) => !r.default) }];
      },
      SetDefaultProvider: async (name: string) => {
        calls.push(`default ${name}`);
        rows = rows.map((r) => ({ ...r, default: r.name === name }));
      },
      ProviderModels: async (name: string) => {
        calls.push(`models ${name}`);
        return models(name);
      },
    };
    window.go = {
      gui: {
        Window: { Info: async () => ({}) },
        SettingsPage: page,
      },
    } as unknown as typeof window.go;
    (window as unknown as { runtime: unknown }).runtime = { EventsOnMultiple: () => () => undefined };
  }
  afterEach(() => {
    window.go = undefined as unknown as typeof window.go;
  });

  const add = async (name: string, url: string) => {
    fireEvent.click(await screen.findByRole('button', { name: 'Add provider' }));
    const form = screen.getByRole('form', { name: 'Provider' });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: name } });
    fireEvent.change(within(form).getByLabelText('Base URL'), { target: { value: url } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save provider' }));
  };

  it('says an empty name under the field, focuses it and saves nothing', async () => {
    bind(async () => []);
    render(<Providers />);
    fireEvent.click(await screen.findByRole('button', { name: 'Add provider' }));
    const save = screen.getByRole('button', { name: 'Save provider' });
    expect((save as HTMLButtonElement).disabled).toBe(false);
    fireEvent.submit(screen.getByRole('form', { name: 'Provider' }));
    const name = screen.getByLabelText('Name');
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(name.getAttribute('aria-describedby')!)!.textContent).toBe('Give the provider a name: the model picker and Agents show it.');
    expect(screen.getByText('1 problem: Name.')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('lists the models of a saved provider and says it connected', async () => {
    bind(async () => [{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
    render(<Providers />);
    await add('Fake LLM', 'http://127.0.0.1:8080/v1');
    expect((await screen.findByText(/Connected to Fake LLM/)).textContent).toBe('Connected to Fake LLM: 3 models.');
    expect(calls).toEqual(['save Fake LLM', 'models Fake LLM']);
    expect(screen.queryByRole('form', { name: 'Provider' })).toBeNull();
  });

  it('keeps the form open with the error when the provider does not answer, and leaves the default with one that was there', async () => {
    bind(async (name) => {
      if (name === 'Dead port') throw new Error('The provider "Dead port" at http://127.0.0.1:9 is not reachable. Is it running?');
      return [{ id: 'm' }];
    });
    render(<Providers />);
    // A provider saved before without a default (an edited config.json):
    // the dead one must not take the default by being saved.
    rows = [{ name: 'Fake LLM', kind: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', default: false }];
    fireEvent.click(await screen.findByRole('button', { name: 'Add provider' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await screen.findByRole('row', { name: 'Fake LLM' });
    await add('Dead port', 'http://127.0.0.1:9/v1');
    const alert = await screen.findByText(/does not work yet/);
    expect(alert.textContent).toContain('Saved, but it does not work yet: The provider "Dead port" at http://127.0.0.1:9 is not reachable.');
    expect(screen.getByRole('form', { name: 'Provider' })).toBeTruthy();
    expect(calls).toEqual(['save Dead port', 'models Dead port', 'default Fake LLM']);
    expect(rows.find((r) => r.default)?.name).toBe('Fake LLM');
  });
});
