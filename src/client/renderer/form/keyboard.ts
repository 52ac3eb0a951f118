// Keyboard of forms, modals and documents, as clerks of desktop ERPs expect it: Ctrl+S (⌘S) saves
// whatever is open on top (a modal over a document saves the modal); Enter in a single-line field of a
// modal form saves it; focus goes to the first field when a form opens and to the first field in error
// when a save is refused. One stack of save handlers, so only the topmost open form answers Ctrl+S,
// wherever the focus is (also on the page body) — and the browser's "save page" never opens.
import { useEffect, useRef } from 'react';

type Handler = () => void;
const stack: { current: Handler }[] = [];

function onKey(e: KeyboardEvent): void {
  if (!isSaveKey(e) || !stack.length) return;
  e.preventDefault();
  e.stopPropagation();
  if (e.repeat) return;
  stack[stack.length - 1]!.current();
}

/** Ctrl+S / ⌘S (not with Alt or Shift). */
export function isSaveKey(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>): boolean {
  return (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && (e.key === 's' || e.key === 'S');
}

/** While mounted (and `enabled`), Ctrl+S calls `save` — unless a form opened later is on top. */
export function useSaveShortcut(save: Handler, enabled = true): void {
  const ref = useRef(save);
  ref.current = save;
  useEffect(() => {
    if (!enabled) return;
    const entry = { current: () => ref.current() };
    stack.push(entry);
    if (stack.length === 1) window.addEventListener('keydown', onKey, true);
    return () => {
      const at = stack.indexOf(entry);
      if (at >= 0) stack.splice(at, 1);
      if (!stack.length) window.removeEventListener('keydown', onKey, true);
    };
  }, [enabled]);
}

const TEXT_TYPES = new Set(['text', 'search', 'email', 'tel', 'url', 'password', 'number', '']);

/**
 * Enter in a single-line text field (not a select, date picker or text area, not while an IME composes):
 * the key that saves a modal form.
 */
export function isSubmitEnter(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'isComposing' | 'target'>): boolean {
  if (e.key !== 'Enter' || e.isComposing || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return false;
  const t = e.target;
  if (!(t instanceof HTMLInputElement) || !TEXT_TYPES.has(t.type)) return false;
  return !t.closest('.ant-select, .ant-picker, .ant-cascader, .ant-input-textarea, .ant-table');
}

const FIELD = [
  'input:not([type=hidden]):not([type=file]):not([disabled]):not([readonly])',
  'textarea:not([disabled]):not([readonly])',
  '.ant-select:not(.ant-select-disabled) input',
  '.ant-checkbox-input:not([disabled])',
  'button.ant-switch:not([disabled])',
].join(', ');

function visible(el: HTMLElement): boolean {
  return !el.closest('[hidden], .ant-formily-item-hidden') && el.getAttribute('aria-hidden') !== 'true';
}

/** Focuses the first field a clerk can type in; true when there was one. */
export function focusFirstField(container: HTMLElement | null | undefined): boolean {
  const el = [...(container?.querySelectorAll<HTMLElement>(FIELD) ?? [])].find(visible);
  if (!el) return false;
  el.focus();
  return true;
}

/** Focuses the first field showing an error (after a refused save); true when there was one. */
export function focusFirstInvalid(container: HTMLElement | null | undefined): boolean {
  for (const item of container?.querySelectorAll<HTMLElement>('.ant-formily-item-error, .ant-form-item-has-error') ?? []) {
    if (focusFirstField(item)) return true;
  }
  return false;
}

/** After the next paint: the DOM shows what the last state change drew (errors, a new form). */
export function afterPaint(fn: () => void): void {
  requestAnimationFrame(() => setTimeout(fn, 0));
}
