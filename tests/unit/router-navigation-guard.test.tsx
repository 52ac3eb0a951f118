// @vitest-environment jsdom
// The guard wrapper inside a real data router (memory history): refused navigations leave the page as
// it was, redirects land where spec §2 says, the first load is checked too.
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, Navigate, Outlet, RouterProvider, useNavigate } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setPresenter, type Presenter } from '../../src/client/request';
import { ROUTER_FUTURE } from '../../src/client/router/createAppRouter';
import { NavigationGuard } from '../../src/client/router/NavigationGuard';
import { trackUnsaved } from '../../src/client/renderer/form/unsavedChanges';

// The confirm dialog itself is tested with the forms; here the guard's use of the answer.
let leaveAsked = 0;
let leaveAnswer = true;
vi.mock('../../src/client/renderer/form/unsavedChanges', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/client/renderer/form/unsavedChanges')>();
  return { ...real, confirmLeave: async () => { leaveAsked++; return leaveAnswer; } };
});
import { clearStorage, setStoredSession, setTokens } from '../../src/client/session/storage';
import type { SessionInfo } from '../../src/client/session';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const toasts: string[] = [];
const presenter: Presenter = {
  toast: (kind, text) => void toasts.push(`${kind}:${text}`),
  serverError: () => undefined,
  overlay: () => undefined,
  saveFile: () => undefined,
};

let go: ((to: string) => void) | null = null;
function Page({ name }: { name: string }) {
  const navigate = useNavigate();
  go = (to) => navigate(to);
  return <div data-page={name}>{name}</div>;
}

function makeRouter(initial: string) {
  const page = (path: string) => ({ path, element: <Page name={path} /> });
  return createMemoryRouter(
    [
      {
        element: (
          <NavigationGuard>
            <Outlet />
          </NavigationGuard>
        ),
        children: [
          page('/login'),
          page('/navigation'),
          page('/history'),
          page('/procurement/list'),
          page('/procurement/purchaseOrder/:id'),
          page('/baseConfig/currency'),
          page('/qrCodeLoad'),
          { path: '/', element: <Navigate to="/navigation" replace /> },
          { path: '*', element: <Navigate to="/login" replace /> },
        ],
      },
    ],
    { initialEntries: [initial], future: ROUTER_FUTURE },
  );
}

function logIn(rights: string[]) {
  setTokens({ accessToken: 'access', refreshToken: 'refresh' });
  setStoredSession({ functionRights: ['1', ...rights] } as unknown as SessionInfo);
}

let root: Root;
let host: HTMLElement;
let router: ReturnType<typeof makeRouter>;

async function start(initial: string) {
  router = makeRouter(initial);
  await act(async () => root.render(<RouterProvider router={router} future={{ v7_startTransition: true }} />));
}

async function navigate(to: string) {
  await act(async () => go?.(to));
}

const shown = () => host.querySelector('[data-page]')?.getAttribute('data-page') ?? null;
const path = () => router.state.location.pathname;

beforeEach(() => {
  clearStorage();
  toasts.length = 0;
  setPresenter(presenter);
  host = document.createElement('div');
  document.body.appendChild(host);
  root = createRoot(host);
  go = null;
});

afterEach(async () => {
  await act(async () => root.unmount());
  host.remove();
  setPresenter(null);
});

describe('NavigationGuard', () => {
  it('opens a permitted route and sets the page title from the route', async () => {
    logIn(['procurement.list']);
    await start('/navigation');
    await navigate('/procurement/list');
    expect(path()).toBe('/procurement/list');
    expect(shown()).toBe('/procurement/list');
    expect(document.title).toBe('采购订单');
  });

  it('refuses a route without the right: warning toast, stays on the current page', async () => {
    logIn(['procurement.list']);
    await start('/procurement/list');
    const key = router.state.location.key;
    await navigate('/baseConfig/currency');
    expect(toasts).toEqual(['warning:无权限访问币种页面，请联系管理员授权']);
    expect(path()).toBe('/procurement/list');
    expect(shown()).toBe('/procurement/list');
    expect(router.state.location.key).toBe(key);
  });

  it('on a first load of a refused route, warns and shows /navigation', async () => {
    logIn(['procurement.list']);
    await start('/baseConfig/currency');
    expect(toasts).toEqual(['warning:无权限访问币种页面，请联系管理员授权']);
    expect(path()).toBe('/navigation');
    expect(shown()).toBe('/navigation');
  });

  it('cancels navigating to the same path (no new history entry)', async () => {
    logIn(['procurement.list']);
    await start('/navigation');
    await navigate('/procurement/list');
    const key = router.state.location.key;
    await navigate('/procurement/list');
    expect(router.state.location.key).toBe(key);
    expect(toasts).toEqual([]);
  });

  it('sends /login with a token to /navigation', async () => {
    logIn([]);
    await start('/navigation');
    await navigate('/login');
    expect(path()).toBe('/navigation');
  });

  it('sends a first load of /login with a token to /navigation', async () => {
    logIn([]);
    await start('/login');
    expect(path()).toBe('/navigation');
  });

  it('sends the user without a token to /login', async () => {
    await start('/procurement/list');
    expect(path()).toBe('/login');
    expect(shown()).toBe('/login');
  });

  it('lets /qrCodeLoad open without a token', async () => {
    await start('/qrCodeLoad');
    expect(path()).toBe('/qrCodeLoad');
  });

  it('redirects / to /navigation, and unknown paths to /login', async () => {
    logIn([]);
    await start('/');
    expect(path()).toBe('/navigation');
    await navigate('/no/such/page');
    expect(path()).toBe('/navigation'); // /login with a token → /navigation
    await act(async () => clearStorage());
    expect(path()).toBe('/login'); // tokens gone: the guard leaves protected pages
  });

  it('sends / without a token to /login (its <Navigate> runs before the blocker is registered)', async () => {
    await start('/');
    expect(path()).toBe('/login');
    expect(shown()).toBe('/login');
  });

  it('sends an unknown path to /login without a token', async () => {
    await start('/whatever');
    expect(path()).toBe('/login');
  });

  it('holds a permitted navigation while a form has unsaved changes until the user confirms leaving', async () => {
    logIn(['procurement.list']);
    await start('/navigation');
    const untrack = trackUnsaved(() => true);
    try {
      leaveAnswer = false;
      await navigate('/procurement/list');
      expect(leaveAsked).toBe(1);
      expect(path()).toBe('/navigation');
      leaveAnswer = true;
      await navigate('/procurement/list');
      expect(leaveAsked).toBe(2);
      expect(path()).toBe('/procurement/list');
    } finally {
      untrack();
    }
  });
});
