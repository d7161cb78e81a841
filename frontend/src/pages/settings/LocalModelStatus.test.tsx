import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { LocalModelStatus } from './LocalModelStatus';
import { listenLocalModel, waitingLabel } from '../../localmodel';
import { EventLocalModel } from '../../backend';
import type { gui } from '../../backend';

const base: gui.LocalRuntimeView = {
  state: 'ready', model: 'qwen3-1.7b', err: '', restarts: 0, context: 16384, threads: 2, quantizedKv: false,
  memoryMb: 3200, kvMemoryMb: 1792, why: 'fits 9.6 GB of the 16.0 GB free', logPath: '/data/logs/local-model.log', noRuntime: '',
  cpu: 'haswell',
};

describe('LocalModelStatus', () => {
  const listeners: Record<string, (p: unknown) => void> = {};
  let stops = 0;
  const runs: [number, number][] = [];
  let off: (() => void) | undefined;
  function bind(v: gui.LocalRuntimeView) {
    stops = 0;
    window.go = {
      gui: {
        Window: { Info: async () => ({}) },
        SettingsPage: {
          LocalModelStatus: async () => v,
          StopLocalModel: async () => { stops++; },
          LocalModelLog: async () => ['llama_model_loader: loaded meta data', 'main: server is listening'],
          LocalModelRun: async () => ({ context: 0, threads: 0, cpus: 4 }),
          SetLocalModelRun: async (c: number, t: number) => { runs.push([c, t]); },
        },
      },
    } as unknown as typeof window.go;
    (window as unknown as { runtime: unknown }).runtime = {
      EventsOnMultiple: (name: string, fn: (p: unknown) => void) => { listeners[name] = fn; return () => delete listeners[name]; },
    };
  }
  afterEach(() => {
    window.go = undefined as unknown as typeof window.go;
    (window as unknown as { runtime: unknown }).runtime = undefined;
    off?.();
  });

  it('says what it runs, with what context and memory, and stops on request', async () => {
    bind(base);
    render(<LocalModelStatus />);
    expect((await screen.findByRole('status')).textContent).toMatch(/Ready · qwen3-1\.7b/);
    expect(screen.getByText(/Context 16,384 tokens \(fits 9\.6 GB/).textContent).toMatch(/KV cache f16, 1\.9 GB · about 3\.4 GB in all · 2 threads · CPU backend haswell/); // decimal, as the models' sizes
    fireEvent.click(screen.getByRole('button', { name: 'Stop (free its memory)' }));
    await act(async () => {});
    expect(stops).toBe(1);
    fireEvent.click(screen.getByRole('button', { name: 'Show log' }));
    expect((await screen.findByLabelText('Local model log')).textContent).toMatch(/server is listening/);
  });

  it('shows a crash as it happens, with why and where its log is', async () => {
    bind(base);
    off = listenLocalModel(); // as App does
    render(<LocalModelStatus />);
    await screen.findByText(/Ready/);
    act(() => listeners[EventLocalModel]!({ ...base, state: 'restarting', err: 'llama-server stopped: signal: killed', restarts: 1 }));
    expect(screen.getByRole('status').textContent).toMatch(/Stopped unexpectedly; starting again/);
    expect(screen.getByRole('alert').textContent).toMatch(/signal: killed\. Its log says more: \/data\/logs\/local-model\.log/);
    act(() => listeners[EventLocalModel]!({ ...base, state: 'ready', restarts: 1 }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('tells a waiting chat that the model is loading', () => {
    expect(waitingLabel({ ...base, state: 'starting' })).toBe('Loading qwen3-1.7b on this computer…');
    expect(waitingLabel({ ...base, state: 'restarting' })).toMatch(/starting again/);
    expect(waitingLabel({ ...base, state: 'ready' })).toBe('');
    expect(waitingLabel(null)).toBe('');
  });

  it('sets the context and threads, or leaves them to fit the machine', async () => {
    bind(base);
    render(<LocalModelStatus />);
    const ctx = (await screen.findByLabelText('Context')) as HTMLSelectElement;
    expect(ctx.value).toBe('0');
    fireEvent.change(ctx, { target: { value: '8192' } });
    fireEvent.change(screen.getByLabelText('Threads'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect((await screen.findByText(/next message starts the model with it/)).textContent).toBeTruthy();
    expect(runs).toEqual([[8192, 2]]);
  });
});
