import { afterEach, describe, expect, it } from 'vitest';
import { chatState, loadChats, withRunning, type Chat, type ChatEvent } from './chat';
import type { host } from './backend';

const chat = (id: string): Chat => ({
  id, title: id, provider: '', model: '', agent: '', options: {} as host.ChatOptions, createdAt: '', updatedAt: '', messageCount: 2,
});

describe('withRunning', () => {
  const none = new Set<string>();
  it.each<{ name: string; running: Record<string, boolean>; ids: string[]; ended: Set<string>; want: Record<string, boolean> }>([
    { name: 'marks a chat the Go side runs', running: {}, ids: ['a'], ended: none, want: { a: true } },
    { name: 'keeps what the window marked', running: { b: true }, ids: ['a'], ended: none, want: { a: true, b: true } },
    { name: 'never clears (a turn just sent is not yet running there)', running: { b: true }, ids: [], ended: none, want: { b: true } },
    { name: 'leaves a turn that ended while it asked ended', running: { a: false }, ids: ['a'], ended: new Set(['a']), want: { a: false } },
  ])('$name', ({ running, ids, ended, want }) => {
    expect(withRunning(running, ids, ended)).toEqual(want);
  });
  it('is the same object when nothing changes', () => {
    const running = { a: true };
    expect(withRunning(running, ['a'], none)).toBe(running);
  });
});

describe('loading the chats', () => {
  afterEach(() => {
    window.go = undefined as unknown as typeof window.go;
  });

  it('marks answering the chats whose turn runs in the Go side, unless it ends meanwhile', async () => {
    let listener: ((ev: ChatEvent) => void) | undefined;
    (window as unknown as { runtime: unknown }).runtime = {
      EventsOnMultiple: (name: string, fn: (ev: ChatEvent) => void) => {
        if (name === 'chat:event') listener = fn;
        return () => {};
      },
    };
    let answer: (ids: string[]) => void = () => {};
    let asked: () => void = () => {};
    const second = new Promise<void>((resolve) => { asked = resolve; });
    const asks: Array<() => Promise<string[]>> = [
      async () => ['busy'], // the window (re)loads mid-turn
      () => { asked(); return new Promise((resolve) => { answer = resolve; }); }, // a turn ends while this one is asked
    ];
    window.go = {
      gui: {
        Window: { Info: async () => ({}) },
        ChatPage: {
          Chats: async () => [chat('busy'), chat('idle'), chat('ending')],
          PendingRequests: async () => [],
          RunningChats: () => asks.shift()?.() ?? Promise.resolve([]),
        },
      },
    } as unknown as typeof window.go;
    await loadChats();
    expect(chatState().running).toEqual({ busy: true });

    const loading = loadChats();
    await second;
    listener?.({ chatId: 'ending', seq: 1, type: 'done' } as ChatEvent);
    answer(['busy', 'ending']);
    await loading;
    expect(chatState().running).toEqual({ busy: true, ending: false });
  });
});
