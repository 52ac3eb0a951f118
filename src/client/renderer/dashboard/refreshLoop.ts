// The dashboard's refresh loop: load, wait `every` ms after the answer, load again. The next request
// starts only after the previous one answered (a slow server never has two in flight — no pile-up), a
// failure keeps the loop going (the screen keeps its last figures), and while the page is hidden no
// request is made: a tick that falls while hidden waits, and the page loads at once when shown again.
// Timers and visibility are injected so the loop is tested without real sleeps.

export interface LoopClock {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface LoopVisibility {
  hidden(): boolean;
  /** Calls fn whenever visibility changes; returns the unsubscribe. */
  onChange(fn: () => void): () => void;
}

export interface RefreshLoopOptions {
  every: number;
  load(): Promise<void>;
  clock?: LoopClock;
  visibility?: LoopVisibility;
}

const browserClock: LoopClock = {
  setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  clearTimeout: (h) => window.clearTimeout(h as number),
};

const browserVisibility: LoopVisibility = {
  hidden: () => document.visibilityState === 'hidden',
  onChange(fn) {
    document.addEventListener('visibilitychange', fn);
    return () => document.removeEventListener('visibilitychange', fn);
  },
};

/** Starts the loop with a first load now; returns stop(). */
export function startRefreshLoop({ every, load, clock = browserClock, visibility = browserVisibility }: RefreshLoopOptions): () => void {
  let stopped = false;
  let timer: unknown = null;
  let inFlight = false;
  // a tick fell while the page was hidden: load when it shows again
  let due = false;

  const schedule = () => {
    if (stopped) return;
    timer = clock.setTimeout(tick, every);
  };
  const run = async () => {
    inFlight = true;
    due = false;
    try {
      await load();
    } catch {
      // the screen shows the failure itself; the loop carries on
    } finally {
      inFlight = false;
      schedule();
    }
  };
  function tick() {
    timer = null;
    if (stopped || inFlight) return;
    if (visibility.hidden()) {
      due = true;
      return;
    }
    void run();
  }
  const unsubscribe = visibility.onChange(() => {
    if (!stopped && due && !inFlight && !visibility.hidden()) void run();
  });
  void run();
  return () => {
    stopped = true;
    unsubscribe();
    if (timer !== null) clock.clearTimeout(timer);
  };
}
