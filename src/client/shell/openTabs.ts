// The bar of open pages above the content. Kept in sessionStorage so a reload keeps the tabs of this
// browser tab; the home tab is always first and cannot be closed.

import { useSyncExternalStore } from 'react';
import { HOME_PATH } from '../router/guard';

export interface OpenTab {
  /** pathname + search */
  key: string;
  title: string;
}

interface TabsState {
  tabs: OpenTab[];
  /** Bumped by "refresh": the content is re-mounted under a new key. */
  refresh: Record<string, number>;
}

const STORAGE_KEY = 'tbo.openTabs';
const HOME_TAB: OpenTab = { key: HOME_PATH, title: '首页导航' };

function load(): TabsState {
  try {
    const tabs = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]') as OpenTab[];
    if (Array.isArray(tabs) && tabs.length > 0) return { tabs: withHome(tabs), refresh: {} };
  } catch {
    // fall through to a fresh bar
  }
  return { tabs: [HOME_TAB], refresh: {} };
}

function withHome(tabs: OpenTab[]): OpenTab[] {
  return tabs[0]?.key === HOME_PATH ? tabs : [HOME_TAB, ...tabs.filter((t) => t.key !== HOME_PATH)];
}

let state: TabsState = typeof sessionStorage === 'undefined' ? { tabs: [HOME_TAB], refresh: {} } : load();
const listeners = new Set<() => void>();

function set(next: TabsState): void {
  state = next;
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(state.tabs));
  } catch {
    // kept in memory only
  }
  for (const l of [...listeners]) l();
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useOpenTabs(): TabsState {
  return useSyncExternalStore(subscribe, () => state, () => state);
}

/** The open tabs now, outside React. */
export function currentTabs(): readonly OpenTab[] {
  return state.tabs;
}

export function isClosable(key: string): boolean {
  return key !== HOME_PATH;
}

export function openTab(tab: OpenTab): void {
  const existing = state.tabs.find((t) => t.key === tab.key);
  if (existing && existing.title === tab.title) return;
  const tabs = existing ? state.tabs.map((t) => (t.key === tab.key ? tab : t)) : [...state.tabs, tab];
  set({ ...state, tabs: withHome(tabs) });
}

/**
 * Points the tab `oldKey` at `tab` in its place (the page changed its own query, e.g. the product a price
 * query shows): one tab per page rather than one per query. Opens `tab` when `oldKey` is not open.
 */
export function replaceTab(oldKey: string, tab: OpenTab): void {
  if (!state.tabs.some((t) => t.key === oldKey) || oldKey === HOME_PATH) return openTab(tab);
  const tabs = state.tabs.filter((t) => t.key !== tab.key || t.key === oldKey).map((t) => (t.key === oldKey ? tab : t));
  set({ ...state, tabs: withHome(tabs) });
}

/** Gives an open tab a better title (the page named itself once its record was in); nothing when not open. */
export function renameTab(key: string, title: string): void {
  if (!state.tabs.some((t) => t.key === key && t.title !== title)) return;
  set({ ...state, tabs: state.tabs.map((t) => (t.key === key ? { ...t, title } : t)) });
}

/** Closes a tab; returns the key of the tab to show if the closed one was active, else null. */
export function closeTab(key: string, activeKey: string): string | null {
  if (!isClosable(key)) return null;
  const index = state.tabs.findIndex((t) => t.key === key);
  if (index === -1) return null;
  const tabs = state.tabs.filter((t) => t.key !== key);
  set({ ...state, tabs });
  if (key !== activeKey) return null;
  return (tabs[index] ?? tabs[index - 1] ?? HOME_TAB).key;
}

export function closeOtherTabs(key: string): void {
  set({ ...state, tabs: withHome(state.tabs.filter((t) => t.key === key)) });
}

export function refreshTab(key: string): void {
  set({ ...state, refresh: { ...state.refresh, [key]: (state.refresh[key] ?? 0) + 1 } });
}

/** Forget every tab (a different user logs in). */
export function resetTabs(): void {
  set({ tabs: [HOME_TAB], refresh: {} });
}
