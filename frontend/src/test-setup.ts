import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, vi } from 'vitest';

// The test files share one environment (vite.config.ts: isolate is off, so
// jsdom is set up once, not once a file: most of vitest's time). So each
// test leaves the globals as it found them (no DOM, no hash, no Wails
// bindings or runtime, whatever it stubbed), and each file's modules are
// dropped when it ends: the next file imports its own, with fresh stores
// and module state, as in a file of its own.
afterEach(() => {
  cleanup();
  location.hash = '';
  delete window.go;
  delete (window as { runtime?: unknown }).runtime;
});
afterAll(() => {
  vi.resetModules();
});
