// Loading code-split chunks (spec §9: chunk load timeout 120 s). After a new deployment the old chunk
// names are gone and the import fails: reload once to fetch the new index.html, remembering the reload in
// sessionStorage so a chunk that is really broken shows an error instead of reloading forever.

import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const RELOAD_MARK_KEY = 'tbo.chunkReloaded';

export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super(`页面加载失败：${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'ChunkLoadError';
  }
}

export function withTimeout<T>(load: () => Promise<T>, ms = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`加载超时（${ms / 1000} 秒）`)), ms);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

interface ReloadEnv {
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  reload: () => void;
  now: () => number;
}

/**
 * A second deployment later in the day may reload again, but never sooner than this after the last
 * reload: one chunk that keeps failing while others load cannot turn into a reload loop.
 */
export const RELOAD_MIN_INTERVAL_MS = 10 * 60_000;

function browserEnv(): ReloadEnv {
  let storage: ReloadEnv['storage'] = null;
  try {
    storage = window.sessionStorage;
  } catch {
    storage = null;
  }
  return { storage, reload: () => window.location.reload(), now: () => Date.now() };
}

/** True when a reload was started (the caller should then wait, not show an error). */
export function reloadOnce(env: ReloadEnv = browserEnv()): boolean {
  if (!env.storage) return false;
  const last = Number(env.storage.getItem(RELOAD_MARK_KEY) ?? 0);
  if (last && env.now() - last < RELOAD_MIN_INTERVAL_MS) return false;
  env.storage.setItem(RELOAD_MARK_KEY, String(env.now()));
  env.reload();
  return true;
}

/** Load a chunk with the timeout; on failure reload once, else reject with ChunkLoadError. */
export function loadChunk<T>(load: () => Promise<T>, env?: ReloadEnv): Promise<T> {
  return withTimeout(load).catch((error: unknown) => {
    // The page is going away; never settle so no error flashes before the reload.
    if (reloadOnce(env)) return new Promise<T>(() => {});
    throw new ChunkLoadError(error);
  });
}

export function lazyChunk<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(() => loadChunk(load));
}
