// The suite's clock. No test reads the real calendar: the run declares its "now" — TEST_CLOCK, default
// DEFAULT_TEST_CLOCK — and every realm that tells the time in it agrees: the test processes (this file,
// vitest's setupFiles), each server they start as another process (TEST_HOOK_CLOCK_SHIFT_MS, read by
// src/server/test-clock-hook.ts) and each browser page (browserClockScript, sent by the e2e harness).
// Time flows from there as usual, so "today" is fixed while durations and timers stay real. A test that
// needs another day still moves the clock itself (vi.setSystemTime, advanceClock, TEST_HOOK_CLOCK_FILE).
//
// The default is a day the suite's dated fixtures were written around; `TEST_CLOCK=… npm test` runs it on
// another (a test whose fixed dates must stay ahead of today sets its own clock, as promotions.test.ts does).
import { installDateShift } from '../../src/core/date-shift.ts';

/** A weekday morning in company time (UTC+8): no test should care, but a run starting at 23:59 would tell. */
export const DEFAULT_TEST_CLOCK = '2026-11-27T02:00:00.000Z';

/** The offset every realm of this run applies, decided once (the first process to ask sets it for its children). */
export function testClockShiftMs(): number {
  const set = Number(process.env.TEST_HOOK_CLOCK_SHIFT_MS);
  if (process.env.TEST_HOOK_CLOCK_SHIFT_MS && Number.isFinite(set)) return set;
  const start = Date.parse(process.env.TEST_CLOCK || DEFAULT_TEST_CLOCK);
  if (!Number.isFinite(start)) throw new Error(`TEST_CLOCK is not a date: ${process.env.TEST_CLOCK}`);
  const realNow = (Date as unknown as { __realDate?: DateConstructor }).__realDate?.now() ?? Date.now();
  const shift = start - realNow;
  process.env.TEST_HOOK_CLOCK_SHIFT_MS = String(shift);
  return shift;
}

/** The script a browser page runs before its own: the same Date shift as the test process. */
export function browserClockScript(): string {
  return `(${installDateShift.toString()})(${testClockShiftMs()});`;
}
