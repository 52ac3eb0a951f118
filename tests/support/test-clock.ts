// vitest setupFiles: every test file runs on the run's clock (tests/support/clock-shift.ts).
import { afterAll, afterEach, beforeEach } from 'vitest';
import { installDateShift } from '../../src/core/date-shift.ts';
import { testClockShiftMs } from './clock-shift.ts';

const NATIVE_DATE = globalThis.Date;
const shift = testClockShiftMs();
installDateShift(shift);
// vi.useRealTimers() after vi.setSystemTime without fake timers puts back the Date vitest captured when it
// loaded, the real one: put the shift back before the next test sees the calendar (a fake Date a test
// installed for several tests is left alone)
const keep = () => {
  if (globalThis.Date === NATIVE_DATE) installDateShift(shift);
};
beforeEach(keep);
afterEach(keep);
afterAll(keep);
