// What the user sees from the request core goes through this small interface: toasts, the server-error
// modal, the processing overlay and file saving. The default is the antd implementation
// (presenter-antd.tsx); unit tests install a recording fake; the shell may install one built on
// App.useApp() instances so toasts follow the app theme.

export type ToastKind = 'success' | 'info' | 'warning' | 'error';

export interface Presenter {
  /** A toast. Error toasts stay until dismissed; the others last TOAST_DURATION_MS. */
  toast(kind: ToastKind, text: string): void;
  /** The '500' modal: title, the server message, a copy button and a close button. */
  serverError(title: string, message: string): void;
  /** Show (true) or hide (false) the full-screen processing overlay. Called on 0↔1 transitions only. */
  overlay(active: boolean): void;
  /** Hand a downloaded file to the browser. */
  saveFile(blob: Blob, fileName: string): void;
}

let current: Presenter | null = null;
let fallback: Presenter | null = null;

/** Install the default presenter (done by presenter-antd.tsx when it is imported). */
export function setDefaultPresenter(p: Presenter): void {
  fallback = p;
}

/** Install a presenter; returns a function restoring the previous one. */
export function setPresenter(p: Presenter | null): () => void {
  const previous = current;
  current = p;
  return () => {
    current = previous;
  };
}

const noop: Presenter = {
  toast: () => undefined,
  serverError: () => undefined,
  overlay: () => undefined,
  saveFile: () => undefined,
};

export function getPresenter(): Presenter {
  return current ?? fallback ?? noop;
}

/** Convenience toasts through the current presenter (same durations as the request core's). */
export const toast = {
  success: (text: string) => getPresenter().toast('success', text),
  info: (text: string) => getPresenter().toast('info', text),
  warning: (text: string) => getPresenter().toast('warning', text),
  error: (text: string) => getPresenter().toast('error', text),
};
