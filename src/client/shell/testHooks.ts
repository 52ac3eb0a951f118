// Only in the e2e build (vite --mode e2e, see tests/e2e/support/client.ts): lets browser tests start
// several API calls at once through the real request core. The production build drops this module.

import { callApi } from '../request';

declare global {
  interface Window {
    __tbo?: { callApi: typeof callApi };
  }
}

export function installTestHooks(): void {
  window.__tbo = { callApi };
}
