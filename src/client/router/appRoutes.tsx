// The route tree: the login page, the fixed redirects, every screen file (inside the layout, or
// standalone), and the catch-all to /login. The guard sits at the root so it sees every navigation.

import { Suspense, type ReactNode } from 'react';
import { Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { LOGIN_PATH } from './guard';
import { lazyChunk } from './lazyChunk';
import { NavigationGuard } from './NavigationGuard';
import { PageLoading } from './PageLoading';
import { REDIRECTS } from './routeTable';
import { RouteErrorPage } from './RouteErrorPage';
import { screens as allScreens } from './screenIndex';
import { isStandalone, type ScreenRoute } from './screenTypes';

const LoginPage = lazyChunk(() => import('../shell/LoginPage'));
const AppLayout = lazyChunk(() => import('../shell/AppLayout'));
const ScreenPage = lazyChunk(() => import('./ScreenPage'));

function suspended(node: ReactNode): ReactNode {
  return <Suspense fallback={<PageLoading />}>{node}</Suspense>;
}

function screenRoute(screen: ScreenRoute): RouteObject {
  return {
    path: screen.route,
    element: suspended(<ScreenPage meta={screen} />),
  };
}

export function buildRoutes(screens: readonly ScreenRoute[] = allScreens): RouteObject[] {
  const inLayout = screens.filter((s) => !isStandalone(s));
  const standalone = screens.filter(isStandalone);
  return [
    {
      element: (
        <NavigationGuard>
          <Outlet />
        </NavigationGuard>
      ),
      errorElement: <RouteErrorPage />,
      children: [
        { path: LOGIN_PATH, element: suspended(<LoginPage />) },
        ...Object.entries(REDIRECTS).map(([from, to]) => ({ path: from, element: <Navigate to={to} replace /> })),
        { element: suspended(<AppLayout />), children: inLayout.map(screenRoute) },
        ...standalone.map(screenRoute),
        { path: '*', element: <Navigate to={LOGIN_PATH} replace /> },
      ],
    },
  ];
}
