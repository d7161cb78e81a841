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

// Relative asset paths: the Go binary embeds dist/ and serves it from its own origin.
export default defineConfig({
  base: './',
  plugins: [react(), keepDist],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: { strictPort: false },
  test: {
    environment: 'jsdom',
    globals: true,
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
  },
});
