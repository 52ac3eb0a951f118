// Unsaved-changes warning (issue 4). Open forms register a "has unsaved changes" check here.
// - Closing or reloading the browser tab: the beforeunload prompt, installed while any check is live.
// - Leaving inside the app: react-router allows one blocker per router and the navigation guard owns
//   it, so the guard asks `hasUnsavedChanges()` / `confirmLeave()` (exported for it) instead of the
//   form installing a second blocker that would silently replace the guard's.
// - Closing a form's modal or drawer: the form asks confirmLeave() itself.

import { Modal } from 'antd';

export const UNSAVED_TITLE = '有未保存的修改';
export const UNSAVED_TEXT = '离开后修改将丢失，确定离开吗？';

const checks = new Set<() => boolean>();

function onBeforeUnload(e: BeforeUnloadEvent): void {
  if (!hasUnsavedChanges()) return;
  e.preventDefault();
  // Older browsers show the prompt only when returnValue is set.
  e.returnValue = '';
}

/** Register a check while a form is open; returns the unregister function. */
export function trackUnsaved(check: () => boolean): () => void {
  if (checks.size === 0 && typeof window !== 'undefined') window.addEventListener('beforeunload', onBeforeUnload);
  checks.add(check);
  return () => {
    checks.delete(check);
    if (checks.size === 0 && typeof window !== 'undefined') window.removeEventListener('beforeunload', onBeforeUnload);
  };
}

export function hasUnsavedChanges(): boolean {
  for (const c of checks) if (c()) return true;
  return false;
}

/** Ask the user whether to leave; resolves true at once when nothing is unsaved. */
export function confirmLeave(onlyIf: () => boolean = hasUnsavedChanges): Promise<boolean> {
  if (!onlyIf()) return Promise.resolve(true);
  return new Promise((resolve) => {
    Modal.confirm({
      title: UNSAVED_TITLE,
      content: UNSAVED_TEXT,
      okText: '离开',
      cancelText: '留下',
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}
