import { Breadcrumb } from 'antd';
import { Link } from 'react-router-dom';
import { HOME_PATH } from '../router/guard';
import { MENU_GROUP_TITLES, isStandalone, type MenuGroup, type ScreenRoute } from '../router/screenTypes';

/** 首页 / module / page. */
export function Breadcrumbs({ screen }: { screen: ScreenRoute | null }) {
  const items = [{ title: <Link to={HOME_PATH}>首页</Link> }];
  if (screen && screen.route !== HOME_PATH) {
    if (!isStandalone(screen)) items.push({ title: <>{MENU_GROUP_TITLES[screen.menu.group as MenuGroup]}</> });
    items.push({ title: <>{screen.title}</> });
  }
  return <Breadcrumb items={items} style={{ marginBottom: 12 }} />;
}
