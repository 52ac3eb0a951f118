// The dashboard's refresh loop with a hand-driven clock and visibility: no pile-up behind a slow server,
// the interval counted from the answer, a failure does not stop it, nothing loads while hidden and a
// missed tick loads as soon as the page shows again; stop() ends it.
import { describe, expect, it } from 'vitest';
import { startRefreshLoop, type LoopClock, type LoopVisibility } from '../../src/client/renderer/dashboard/refreshLoop';

class FakeClock implements LoopClock {
  now = 0;
  private timers = new Map<number, { at: number; fn: () => void }>();
  private next = 1;
  setTimeout(fn: () => void, ms: number) {
    const id = this.next++;
    this.timers.set(id, { at: this.now + ms, fn });
    return id;
  }
  clearTimeout(h: unknown) {
    this.timers.delete(h as number);
  }
  pending() {
    return this.timers.size;
  }
  /** Moves time on, firing due timers in order. */
  advance(ms: number) {
    const end = this.now + ms;
    for (;;) {
      const due = [...this.timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.now = due[1].at;
      due[1].fn();
    }
    this.now = end;
  }
}

class FakeVisibility implements LoopVisibility {
  isHidden = false;
  private fns = new Set<() => void>();
  hidden() {
    return this.isHidden;
  }
  onChange(fn: () => void) {
    this.fns.add(fn);
    return () => this.fns.delete(fn);
  }
  set(hidden: boolean) {
    this.isHidden = hidden;
    for (const fn of this.fns) fn();
  }
}

/** A load whose answers the test releases one by one. */
function manualLoad() {
  const waiting: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
  let started = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const load = () => {
    started++;
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    return new Promise<void>((resolve, reject) => waiting.push({ resolve: () => { inFlight--; resolve(); }, reject: (e) => { inFlight--; reject(e); } }));
  };
  return {
    load,
    get started() { return started; },
    get maxInFlight() { return maxInFlight; },
    async answer(fail = false) {
      const w = waiting.shift()!;
      if (fail) w.reject(new Error('down'));
      else w.resolve();
      // let the loop's finally run
      await Promise.resolve();
      await Promise.resolve();
      await Promise.resolve();
    },
  };
}

describe('dashboard refresh loop', () => {
  it('loads at once, then `every` ms after each answer; a slow answer never lets a second request start', async () => {
    const clock = new FakeClock();
    const vis = new FakeVisibility();
    const l = manualLoad();
    const stop = startRefreshLoop({ every: 30_000, load: l.load, clock, visibility: vis });
    expect(l.started).toBe(1);
    // the server is slow: 95 s pass with the first request unanswered — nothing else starts
    clock.advance(95_000);
    expect(l.started).toBe(1);
    expect(clock.pending()).toBe(0);
    await l.answer();
    clock.advance(29_999);
    expect(l.started).toBe(1);
    clock.advance(1);
    expect(l.started).toBe(2);
    await l.answer();
    clock.advance(30_000);
    expect(l.started).toBe(3);
    expect(l.maxInFlight).toBe(1);
    stop();
  });

  it('a failed load keeps the loop going', async () => {
    const clock = new FakeClock();
    const l = manualLoad();
    const stop = startRefreshLoop({ every: 30_000, load: l.load, clock, visibility: new FakeVisibility() });
    await l.answer(true);
    clock.advance(30_000);
    expect(l.started).toBe(2);
    stop();
  });

  it('nothing loads while the page is hidden; the missed tick loads when it shows again', async () => {
    const clock = new FakeClock();
    const vis = new FakeVisibility();
    const l = manualLoad();
    const stop = startRefreshLoop({ every: 30_000, load: l.load, clock, visibility: vis });
    await l.answer();
    vis.set(true);
    clock.advance(300_000);
    expect(l.started).toBe(1);
    // shown again: at once, not 30 s later
    vis.set(false);
    expect(l.started).toBe(2);
    await l.answer();
    // a visibility change without a missed tick loads nothing extra
    vis.set(true);
    vis.set(false);
    expect(l.started).toBe(2);
    clock.advance(30_000);
    expect(l.started).toBe(3);
    stop();
  });

  it('stop() ends the loop: no timer left, no load after', async () => {
    const clock = new FakeClock();
    const vis = new FakeVisibility();
    const l = manualLoad();
    const stop = startRefreshLoop({ every: 30_000, load: l.load, clock, visibility: vis });
    await l.answer();
    expect(clock.pending()).toBe(1);
    stop();
    expect(clock.pending()).toBe(0);
    clock.advance(120_000);
    vis.set(false);
    expect(l.started).toBe(1);
  });
});
