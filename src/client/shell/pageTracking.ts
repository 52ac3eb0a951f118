// Each page the layout shows becomes an open tab and a history entry.

import { useEffect, useRef } from 'react';
import { matchPath, useNavigationType } from 'react-router-dom';
import { fullPath, type PathLike } from '../router/guardInput';
import type { ScreenRoute } from '../router/screenTypes';
import { onHeading } from '../router/pageHeading';
import { openTab, renameTab, replaceTab } from './openTabs';
import { recordVisit } from './visitHistory';

const NOT_RECORDED = new Set(['/history']);

/** Detail pages of the same kind need telling apart: "采购订单详情（12）"; a new one reads "（新建）". */
export function pageTitle(screen: ScreenRoute, pathname: string): string {
  const params = matchPath(screen.route, pathname)?.params ?? {};
  const values = Object.values(params).filter(Boolean).map((v) => (v === 'new' ? '新建' : v));
  return values.length ? `${screen.title}（${values.join('/')}）` : screen.title;
}

/**
 * Whether a page takes the place of the one shown before it (its tab) rather than opening a tab: a page
 * that replaced its own query (same path, navigate with replace — a picker on the page), or a new
 * document that became the saved one (/…/new → /…/123, replace, the same screen).
 */
export function replacesPrevious(screen: ScreenRoute, navigation: string, before: { key: string; pathname: string } | null, pathname: string, key: string): boolean {
  if (navigation !== 'REPLACE' || !before || before.key === key) return false;
  return before.pathname === pathname || matchPath(screen.route, before.pathname) !== null;
}

export function useTrackPage(location: PathLike, screen: ScreenRoute | null): void {
  const key = fullPath(location);
  const navigation = useNavigationType();
  // The page shown before this one: a page that replaced its own query (same path, navigate with
  // replace — a picker on the page) keeps its tab instead of opening one per query.
  const previous = useRef<{ key: string; pathname: string } | null>(null);
  // a page's own heading (a 收款单, not 收付款单详情) renames its tab
  useEffect(() => onHeading((path, title) => renameTab(path, title)), []);
  useEffect(() => {
    if (!screen) return;
    const title = pageTitle(screen, location.pathname);
    const before = previous.current;
    if (replacesPrevious(screen, navigation, before, location.pathname, key)) replaceTab(before!.key, { key, title });
    else openTab({ key, title });
    previous.current = { key, pathname: location.pathname };
    if (!NOT_RECORDED.has(screen.route)) recordVisit(key, title);
  }, [key, screen, location.pathname, navigation]);
}
