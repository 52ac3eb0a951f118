import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The client is built into dist/client and served by the Fastify server on the same port.
export default defineConfig({
  plugins: [react()],
  root: '.',
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
  server: {
    proxy: {
      '/auth': 'http://127.0.0.1:8080',
      '/cdm': 'http://127.0.0.1:8080',
      '/oms': 'http://127.0.0.1:8080',
      '/storage': 'http://127.0.0.1:8080',
      '/api': 'http://127.0.0.1:8080',
    },
  },
});
