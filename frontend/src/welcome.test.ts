import { afterEach, describe, expect, it } from 'vitest';
import { welcome } from './welcome';

// The welcome page decides from Welcome(), which probes this machine and can take seconds on a
// busy one. A navigation made meanwhile (a link, a shortcut, Done) wins: the late answer must not
// bring the welcome page back over the page the user went to (#46).
describe('welcome.load', () => {
  afterEach(() => { delete (window as { go?: unknown }).go; });

  it('shares one question between callers and does not reopen after the user left', async () => {
    let calls = 0;
    let answer: (v: unknown) => void = () => {};
    window.go = { gui: { Window: { Info: async () => ({}) }, WelcomePage: { Welcome: () => { calls++; return new Promise((r) => { answer = r; }); } } } } as never;
    const a = welcome.load();
    const b = welcome.load(); // React's StrictMode runs the shell's effect twice
    expect(calls).toBe(1);
    welcome.leave(); // the user went to Settings while it was deciding
    answer({ show: true, configs: [], local: [], dataDir: '/d', logDir: '/l' });
    await Promise.all([a, b]);
    expect(welcome.get().open).toBe(false);
    expect(welcome.get().view?.dataDir).toBe('/d');
  });
});
