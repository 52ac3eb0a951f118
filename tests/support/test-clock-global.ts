// vitest globalSetup: decides the run's clock offset once in the main process, so every worker it forks
// and every server or browser they start share one timeline (tests/support/clock-shift.ts).
import { testClockShiftMs } from './clock-shift.ts';

export default function setup(): void {
  testClockShiftMs();
}
