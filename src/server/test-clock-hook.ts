// Outside production, TEST_HOOK_CLOCK_SHIFT_MS moves this process's Date (see core/date-shift.ts): the
// test runner sets it, so a server it starts as another process sees the same "today" as the test.
// main.ts imports this module first, before anything reads the time.
import { installDateShift } from '../core/date-shift.ts';

const shift = process.env.NODE_ENV === 'production' ? NaN : Number(process.env.TEST_HOOK_CLOCK_SHIFT_MS ?? NaN);
if (Number.isFinite(shift) && shift !== 0) installDateShift(shift);
