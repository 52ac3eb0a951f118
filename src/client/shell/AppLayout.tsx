// The layout of every non-standalone screen: side menu by module, header with the user menu, the bar of
// open pages, breadcrumbs, then the screen. Lazy-loaded so /login does not carry ProLayout.

import { UserOutlined } from '@ant-design/icons';
import { ProLayout, type MenuDataItem } from '@ant-design/pro-components';
import { useEffect, useMemo } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { fullPath } from '../router/guardInput';
import { HOME_PATH } from '../router/guard';
import { screenMatcher } from '../router/routeTable';
import { menuScreens } from '../router/screenMenu';
import { useSession } from '../session';
import { Breadcrumbs } from './Breadcrumbs';
import { GROUP_ICONS } from './groupIcons';
import { buildMenu } from './menuData';
import { useOpenTabs } from './openTabs';
import { PageTabs } from './PageTabs';
import { useTrackPage } from './pageTracking';
import { MenuSearch } from './MenuSearch';
import { UserMenu } from './UserMenu';
import './layout.css';

export const APP_TITLE = '贸易管理后台';

function useMenuRoute(rights: ReadonlySet<string>): MenuDataItem {
  return useMemo(
    () => ({
      path: '/',
      children: buildMenu(menuScreens, rights).map((section) => ({
        key: `group:${section.group}`,
        path: `/${section.group}`,
        name: section.title,
        icon: GROUP_ICONS[section.group],
        children: section.items.map((item) => ({ key: item.route, path: item.route, name: item.title })),
      })),
    }),
    [rights],
  );
}

/**
 * antd tables draw a hidden measuring row (aria-hidden, tabindex -1): made inert, so no assistive
 * technology or Tab reaches into it (axe: aria-hidden elements must not be focusable).
 */
function useInertMeasureRows(): void {
  useEffect(() => {
    const mark = (root: ParentNode) => root.querySelectorAll?.('.ant-table-measure-row:not([inert])').forEach((r) => r.setAttribute('inert', ''));
    mark(document);
    const seen = new MutationObserver((changes) => {
      for (const c of changes) for (const n of c.addedNodes) if (n instanceof Element) (n.matches('.ant-table-measure-row') ? n.setAttribute('inert', '') : mark(n));
    });
    seen.observe(document.body, { childList: true, subtree: true });
    return () => seen.disconnect();
  }, []);
}

export default function AppLayout() {
  useInertMeasureRows();
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const rights = useMemo(() => new Set(session?.functionRights ?? []), [session]);
  const route = useMenuRoute(rights);
  const screen = screenMatcher.match(location.pathname);
  const { refresh } = useOpenTabs();
  const pageKey = fullPath(location);
  useTrackPage(location, screen);

  return (
    <ProLayout
      title={APP_TITLE}
      logo={false}
      layout="mix"
      fixSiderbar
      fixedHeader
      siderWidth={220}
      // Below 1200 px the menu folds to its icons, so that a 1024-wide screen keeps the page's columns.
      breakpoint="xl"
      route={route}
      location={{ pathname: location.pathname }}
      // Exact, not ProLayout's prefix match: a detail page must not light up the "new" page above it.
      selectedKeys={screen ? [screen.route] : []}
      menu={{ locale: false }}
      breadcrumbRender={false}
      // ProLayout sets document.title too: let it set the same title as the guard.
      pageTitleRender={() => screen?.title ?? APP_TITLE}
      onMenuHeaderClick={() => navigate(HOME_PATH)}
      menuItemRender={(item, dom) => (
        <a
          href={item.path}
          onClick={(e) => {
            e.preventDefault();
            if (item.path) navigate(item.path);
          }}
        >
          {dom}
        </a>
      )}
      avatarProps={{
        icon: <UserOutlined />,
        size: 'small',
        title: session ? `${session.employeeName}（${session.companyName}）` : '',
        render: (_props, dom) => <UserMenu>{dom}</UserMenu>,
      }}
      actionsRender={() => [<MenuSearch key="menu-search" />]}
      contentStyle={{ padding: 0 }}
    >
      <PageTabs />
      <div className="page-body">
        <Breadcrumbs screen={screen} />
        <div key={`${pageKey}#${refresh[pageKey] ?? 0}`}>
          <Outlet />
        </div>
      </div>
    </ProLayout>
  );
}
