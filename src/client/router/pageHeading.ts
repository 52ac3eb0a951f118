// A page can name itself better than its route once its record is in: a 收付款单 is a 收款单 or a 付款单.
// The page announces its heading; the shell's tab (and the history entry) take it. (A tiny bus so the
// renderer needs nothing from the shell.)
type Listener = (path: string, title: string) => void;
const listeners = new Set<Listener>();

/** `path`: pathname + search of the page; `title`: what its tab should read. */
export function announceHeading(path: string, title: string): void {
  for (const l of [...listeners]) l(path, title);
}

export function onHeading(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}
