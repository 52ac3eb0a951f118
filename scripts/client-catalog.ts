// The endpoint catalog as the client bundle carries it: the four family files minus what only the
// server and the API docs read (`description`, `handler`) — about 70 kB of the /login entry chunk,
// which imports the catalog for its transport rules (src/client/request/catalog.ts).
import type { Plugin } from 'vite';

export const ENDPOINT_FILE = /schemas[\\/]endpoints[\\/][a-z]+\.json$/;
const SERVER_ONLY = ['description', 'handler'] as const;

/** The family file's text with the server-only fields of each entry left out. */
export function clientCatalogJson(text: string): string {
  const file = JSON.parse(text) as { endpoints?: Record<string, unknown>[] };
  for (const e of file.endpoints ?? []) for (const k of SERVER_ONLY) delete e[k];
  return JSON.stringify(file);
}

export function clientCatalog(): Plugin {
  return {
    name: 'client-catalog',
    // before Vite's JSON plugin turns the file into a module
    enforce: 'pre',
    transform(code, id) {
      if (!ENDPOINT_FILE.test(id.split('?')[0]!)) return null;
      return { code: clientCatalogJson(code), map: null };
    },
  };
}
