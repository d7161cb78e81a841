// The first-run welcome and Help → About: whether the welcome shows, what
// it found on this machine, and the About dialog's state.
import { About, call, FinishWelcome, hasBackend, hasMethod, Welcome, type gui } from './backend';
import { createStore, useSelect } from './store';

export interface WelcomeState {
  /** view is what the welcome page shows; null until asked (or without a backend). */
  view: gui.WelcomeView | null;
  /** open says the window shows the welcome page instead of the current page. */
  open: boolean;
  /** about is Help → About's content while the dialog is open. */
  about: gui.AboutView | null;
  /** opened lists files handed to the window (a .mcpb), newest last. */
  opened: string[];
}

const s = createStore<WelcomeState>({ view: null, open: false, about: null, opened: [] });

// decided is set once the user left or finished the welcome page: an answer to load that comes
// later (Welcome probes this machine, slow on a busy one) must not bring the page back over the
// page the user went to. loading is the one load in flight (the shell's effect can run twice).
let decided = false;
let loading: Promise<void> | null = null;

export const welcome = {
  get: s.get,
  /** load asks whether to show the welcome page (start-up); callers share one question. */
  load(): Promise<void> {
    if (!hasBackend() || !hasMethod('WelcomePage', 'Welcome')) return Promise.resolve();
    loading ??= call(() => Welcome()).then((view) => {
      s.set({ view, open: view.show && !decided });
    }).finally(() => { loading = null; });
    return loading;
  },
  /** refresh asks again for what was found (after an import or a provider was added). */
  async refresh(): Promise<void> {
    const view = await call(() => Welcome());
    s.set({ view });
  },
  /**
   * leave puts the welcome page aside for this session (the user went to
   * another page); unlike finish it shows again at the next start while
   * nothing is set up.
   */
  leave(): void {
    decided = true;
    if (s.get().open) s.set({ open: false });
  },
  /** finish closes the welcome page for good (done or skipped). */
  async finish(): Promise<void> {
    decided = true;
    await call(() => FinishWelcome());
    s.set({ open: false });
  },
  async showAbout(): Promise<void> {
    s.set({ about: await call(() => About()) });
  },
  closeAbout(): void {
    s.set({ about: null });
  },
  fileOpened(path: string): void {
    s.set({ opened: [...s.get().opened, path] });
  },
};

export function useWelcome<T>(select: (st: WelcomeState) => T): T {
  return useSelect(s, select);
}
