import { writeFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// dist/.gitkeep is committed so a fresh clone's `go build` finds the embedded
// directory; the build empties dist/, so put it back afterwards.
const keepDist: Plugin = {
  name: 'keep-dist',
  apply: 'build',
  closeBundle() {
    writeFileSync(new URL('./dist/.gitkeep', import.meta.url), '');
  },
};

// 'wails dev' serves index.html through Vite, whose React Refresh preamble is
// an inline script and whose HMR socket (like Wails' dev IPC socket) is a
// loopback WebSocket: widen the window's Content-Security-Policy for that,
// in the dev server only. Built files keep index.html's policy as written.
const devCSP: Plugin = {
  name: 'dev-csp',
  apply: 'serve',
  transformIndexHtml(html) {
    const loopback = 'ws://localhost:* ws://127.0.0.1:* http://localhost:* http://127.0.0.1:*';
    return html
      .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
      .replace("connect-src 'self'", `connect-src 'self' ${loopback}`);
  },
};

// Relative asset paths: the Go binary embeds dist/ and serves it from its own origin.
export default defineConfig({
  base: './',
  plugins: [react(), keepDist, devCSP],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: { strictPort: false },
  test: {
    environment: 'jsdom',
    globals: true,
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
    // One jsdom for every file: setting it up once a file was most of the
    // run (~30 of ~70 s on 2 cores). src/test-setup.ts gives each file fresh
    // modules and each test clean globals, so files stay independent (a run
    // with --sequence.shuffle passes in any order).
    isolate: false,
  },
});
