import type { ScreenFile, ScreenRoute } from './screenTypes';

/** What every screen component (kind renderer or custom screen) receives. */
export interface ScreenProps {
  meta: ScreenRoute;
  file: ScreenFile;
}
