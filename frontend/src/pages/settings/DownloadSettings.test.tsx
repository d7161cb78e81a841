import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { DownloadSettings } from './DownloadSettings';
import { store } from '../../store';

// A settings form reloads when config.json changes, but never over what the
// person typed and has not saved (CI once lost a typed "0" to the reload its
// own previous save caused).
describe('DownloadSettings', () => {
  let saved = 300;
  const saves: number[] = [];
  function bind() {
    window.go = {
      gui: {
        Window: { Info: async () => ({}) },
        SettingsPage: {
          DownloadTimeoutSeconds: async () => saved,
          SetDownloadTimeoutSeconds: async (s: number) => {
            if (s < 10) throw new Error('choose between 10 seconds and 2h0m0s');
            saves.push(s);
            saved = s;
          },
        },
      },
    } as unknown as typeof window.go;
  }
  afterEach(() => {
    window.go = undefined as unknown as typeof window.go;
  });

  it('keeps an unsaved edit when config.json reloads, and reloads once saved', async () => {
    bind();
    render(<DownloadSettings />);
    const input = screen.getByLabelText(/Download time limit/) as HTMLInputElement;
    await waitFor(() => expect(input.value).toBe('5'));

    fireEvent.change(input, { target: { value: '12' } });
    saved = 60; // another window saves 1 minute
    act(() => store.configChanged());
    await act(async () => {});
    expect(input.value).toBe('12');

    fireEvent.click(screen.getByRole('button', { name: 'Save download limit' }));
    await screen.findByText('Saved');
    expect(saves).toEqual([720]);

    fireEvent.change(input, { target: { value: '0' } });
    act(() => store.configChanged()); // the reload the save caused arrives late
    await act(async () => {});
    expect(input.value).toBe('0');
    fireEvent.click(screen.getByRole('button', { name: 'Save download limit' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/choose between 10 seconds/);

    saved = 120;
    fireEvent.change(input, { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save download limit' }));
    await screen.findByText('Saved');
    saved = 180; // saved, so a later reload shows what is on disk
    act(() => store.configChanged());
    await waitFor(() => expect(input.value).toBe('3'));
  });
});
