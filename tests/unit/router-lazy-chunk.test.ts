import { describe, expect, it, vi } from 'vitest';
import {
  CHUNK_LOAD_TIMEOUT_MS,
  ChunkLoadError,
  RELOAD_MARK_KEY,
  RELOAD_MIN_INTERVAL_MS,
  loadChunk,
  reloadOnce,
  withTimeout,
} from '../../src/client/router/lazyChunk';

function env(now = 1_000_000) {
  const store = new Map<string, string>();
  return {
    store,
    reload: vi.fn(),
    now: () => now,
    storage: { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) },
  };
}

describe('chunk loading', () => {
  it('times out after 120 s', async () => {
    vi.useFakeTimers();
    try {
      expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
      const pending = withTimeout(() => new Promise(() => {}));
      const settled = expect(pending).rejects.toThrow('加载超时（120 秒）');
      await vi.advanceTimersByTimeAsync(120_000);
      await settled;
    } finally {
      vi.useRealTimers();
    }
  });

  it('passes a loaded chunk through', async () => {
    await expect(loadChunk(() => Promise.resolve('ok'), env())).resolves.toBe('ok');
  });

  it('reloads the page once when a chunk fails, and remembers it in sessionStorage', async () => {
    const e = env();
    const first = loadChunk(() => Promise.reject(new Error('Failed to fetch dynamically imported module')), e);
    await Promise.resolve();
    await Promise.resolve();
    expect(e.reload).toHaveBeenCalledTimes(1);
    expect(e.store.get(RELOAD_MARK_KEY)).toBe('1000000');
    void first; // never settles: the page is reloading

    // After the reload the chunk still fails: show the error instead of reloading again.
    await expect(loadChunk(() => Promise.reject(new Error('boom')), e)).rejects.toBeInstanceOf(ChunkLoadError);
    expect(e.reload).toHaveBeenCalledTimes(1);
  });

  it('may reload again for a later deployment, long after the last reload', () => {
    const e = env();
    e.store.set(RELOAD_MARK_KEY, String(1_000_000 - RELOAD_MIN_INTERVAL_MS - 1));
    expect(reloadOnce(e)).toBe(true);
    expect(reloadOnce(e)).toBe(false);
  });
});
