// Each page the layout shows becomes an open tab and a history entry.

import { useEffect } from 'react';
import { matchPath } from 'react-router-dom';
import { fullPath, type PathLike } from '../router/guardInput';
import type { ScreenRoute } from '../router/screenTypes';
import { openTab } from './openTabs';
import { recordVisit } from './visitHistory';

const NOT_RECORDED = new Set(['/history']);

/** Detail pages of the same kind need telling apart: "采购订单详情（12）"; a new one reads "（新建）". */
export function pageTitle(screen: ScreenRoute, pathname: string): string {
  const params = matchPath(screen.route, pathname)?.params ?? {};
  const values = Object.values(params).filter(Boolean).map((v) => (v === 'new' ? '新建' : v));
  return values.length ? `${screen.title}（${values.join('/')}）` : screen.title;
}

export function useTrackPage(location: PathLike, screen: ScreenRoute | null): void {
  const key = fullPath(location);
  useEffect(() => {
    if (!screen) return;
    const title = pageTitle(screen, location.pathname);
    openTab({ key, title });
    if (!NOT_RECORDED.has(screen.route)) recordVisit(key, title);
  }, [key, screen, location.pathname]);
}
