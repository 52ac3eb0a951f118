// The test clock: moves a JavaScript realm's Date by a fixed offset, so "now" in a test run is the
// instant the run declares (TEST_HOOK_CLOCK_SHIFT_MS, set once by the test runner from TEST_CLOCK),
// whatever the calendar says. Time keeps flowing and timers stay real; only what Date reports moves.
//
// It must be one self-contained function: the end-to-end harness sends its source text to every
// browser page (addInitScript), and the server process runs it first thing when the hook is set, so the
// test process, the servers it starts and the browser agree on today to the millisecond.
// Instances stay real Dates (the constructor returns one and shares Date.prototype), so `instanceof Date`
// holds for dates made before and after the shift, by code or by native modules.

/** Replaces globalThis.Date with one `shiftMs` milliseconds ahead (negative: behind). Idempotent. */
export function installDateShift(shiftMs: number): void {
  const g = globalThis as unknown as { Date: DateConstructor & { __shiftMs?: number; __realDate?: DateConstructor } };
  const RealDate: DateConstructor = g.Date.__realDate ?? g.Date;
  if (g.Date.__shiftMs === shiftMs) return;
  const now = () => RealDate.now() + shiftMs;
  function ShiftedDate(this: unknown, ...args: unknown[]): Date | string {
    // Date() called without `new` gives the current time as text, as the real one does
    if (!new.target) return new RealDate(now()).toString();
    return args.length === 0 ? new RealDate(now()) : new (RealDate as unknown as new (...a: unknown[]) => Date)(...args);
  }
  ShiftedDate.prototype = RealDate.prototype;
  ShiftedDate.now = now;
  ShiftedDate.parse = RealDate.parse;
  ShiftedDate.UTC = RealDate.UTC;
  ShiftedDate.__shiftMs = shiftMs;
  ShiftedDate.__realDate = RealDate;
  g.Date = ShiftedDate as unknown as typeof g.Date;
}
