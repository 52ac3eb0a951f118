// Which component draws a screen: one per kind, plus the named custom screens. All lazy, so a screen's
// code is fetched only when it opens. Kinds without a renderer yet draw the placeholder.

import type { ComponentType, LazyExoticComponent } from 'react';
import { lazyChunk } from './lazyChunk';
import type { ScreenProps } from './screenProps';
import type { ScreenKind } from './screenTypes';

type LazyScreen = LazyExoticComponent<ComponentType<ScreenProps>>;

const placeholder: LazyScreen = lazyChunk(() => import('./PlaceholderPage'));

export const kindRenderers: Partial<Record<ScreenKind, LazyScreen>> = {
  placeholder,
  list: lazyChunk(() => import('../renderer/kinds/ListScreen')),
  form: lazyChunk(() => import('../renderer/kinds/FormScreen')),
  detail: lazyChunk(() => import('../renderer/kinds/DetailScreen')),
  document: lazyChunk(() => import('../renderer/kinds/DocumentScreen')),
  report: lazyChunk(() => import('../renderer/kinds/ReportScreen')),
  download: lazyChunk(() => import('../renderer/kinds/DownloadScreen')),
  dashboard: lazyChunk(() => import('../renderer/kinds/DashboardScreen')),
  wall: lazyChunk(() => import('../renderer/kinds/WallScreen')),
};

/** Screens that are not data screens; a screen file names one with `"kind": "custom", "component"`. */
export const customScreens: Record<string, LazyScreen> = {
  navigation: lazyChunk(() => import('../shell/NavigationPage')),
  history: lazyChunk(() => import('../shell/HistoryPage')),
};

export function rendererFor(kind: ScreenKind, component?: string): LazyScreen | null {
  if (kind === 'custom') return (component && customScreens[component]) || null;
  return kindRenderers[kind] ?? placeholder;
}
