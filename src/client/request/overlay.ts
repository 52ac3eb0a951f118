// Ref-counted full-screen processing overlay (spec §9): calls whose catalog entry has overlay:true show
// it while they run. The presenter is told only on 0→1 (show) and 1→0 (hide).

import { getPresenter } from './presenter';

let count = 0;

/** Start one overlay hold; the returned function ends it (idempotent). */
export function holdOverlay(): () => void {
  count += 1;
  if (count === 1) getPresenter().overlay(true);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    count -= 1;
    if (count === 0) getPresenter().overlay(false);
  };
}

/** How many overlay holds are active (for tests and diagnostics). */
export function overlayCount(): number {
  return count;
}
