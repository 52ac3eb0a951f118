// The app: with a stored token, make sure the session (rights) is known before the first route is
// checked; then hand over to the router.

import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { createAppRouter, type AppRouter } from './router/createAppRouter';
import { PageLoading } from './router/PageLoading';
import { getSession, isLoggedIn, loadSession } from './session';
import { keepPreferences } from './shell/keptPreferences';

function needsSessionFirst(): boolean {
  return isLoggedIn() && !getSession();
}

// One load even when StrictMode runs the effect twice (a second identical call would be dropped as a
// duplicate and resolve at once, before the session is there).
let sessionFirst: Promise<unknown> | null = null;

export function App() {
  const [router, setRouter] = useState<AppRouter | null>(() => (needsSessionFirst() ? null : createAppRouter()));

  useEffect(() => {
    keepPreferences();
    if (router) {
      // Rights may have changed since the session was stored: refresh it quietly.
      if (isLoggedIn()) void loadSession();
      return;
    }
    sessionFirst ??= loadSession();
    void sessionFirst.finally(() => setRouter((current) => current ?? createAppRouter()));
  }, [router]);

  if (!router) return <PageLoading />;
  return <RouterProvider router={router} future={{ v7_startTransition: true }} />;
}
