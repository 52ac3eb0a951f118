import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { AppProviders } from './shell/AppProviders';

// Statically false outside `vite build --mode e2e`, so production bundles carry no test hook.
if (import.meta.env.MODE === 'e2e') void import('./shell/testHooks').then((m) => m.installTestHooks());

const container = document.getElementById('root');
if (!container) throw new Error('#root missing in index.html');

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <App />
    </AppProviders>
  </StrictMode>,
);
