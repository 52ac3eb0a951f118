// Build of the bench:render page only (scripts/bench-render.ts builds it, serves it, and drives it).
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  plugins: [react()],
  root: here,
  base: '/',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../../dist/bench-render', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 5000,
  },
});
