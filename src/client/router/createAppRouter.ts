// The browser router (history mode, base '/'). The request core's "go to /login" goes through it, so
// even that navigation passes the guard.

import { createBrowserRouter } from 'react-router-dom';
import { setLoginNavigator } from '../request';
import { buildRoutes } from './appRoutes';

export const ROUTER_FUTURE = {
  v7_relativeSplatPath: true,
  v7_fetcherPersist: true,
  v7_normalizeFormMethod: true,
  v7_partialHydration: true,
  v7_skipActionErrorRevalidation: true,
} as const;

export type AppRouter = ReturnType<typeof createBrowserRouter>;

export function createAppRouter(): AppRouter {
  const router = createBrowserRouter(buildRoutes(), { basename: '/', future: ROUTER_FUTURE });
  setLoginNavigator((path) => void router.navigate(path, { replace: true }));
  return router;
}
