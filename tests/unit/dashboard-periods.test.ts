// The days a dashboard compares: yesterday, this month so far, last month to the same day (its last day
// when shorter), across a year's turn, and the UTC instants of company days (UTC+8).
import { describe, expect, it } from 'vitest';
import { periodsOf } from '../../src/server/domain/dashboard/periods.ts';

describe('dashboard periods', () => {
  it('today against yesterday, this month so far against last month to the same day', () => {
    expect(periodsOf('2027-04-02', 8)).toMatchObject({ today: '2027-04-02', yesterday: '2027-04-01', monthStart: '2027-04-01', lastMonthStart: '2027-03-01', lastMonthSameDay: '2027-03-02' });
  });

  it('the last day of a longer month compares with the last day of a shorter one', () => {
    expect(periodsOf('2027-03-31', 8)).toMatchObject({ lastMonthStart: '2027-02-01', lastMonthSameDay: '2027-02-28' });
    expect(periodsOf('2028-03-30', 8)).toMatchObject({ lastMonthSameDay: '2028-02-29' });
  });

  it('across the year: January against last December; the 1st has yesterday in the month before', () => {
    expect(periodsOf('2027-01-01', 8)).toMatchObject({ yesterday: '2026-12-31', monthStart: '2027-01-01', lastMonthStart: '2026-12-01', lastMonthSameDay: '2026-12-01' });
  });

  it('company days as UTC instants (UTC+8)', () => {
    expect(periodsOf('2027-04-02', 8).at).toEqual({
      todayStart: '2027-04-01T16:00:00.000Z', todayEnd: '2027-04-02T15:59:59.999Z',
      yesterdayStart: '2027-03-31T16:00:00.000Z', yesterdayEnd: '2027-04-01T15:59:59.999Z',
      monthStart: '2027-03-31T16:00:00.000Z', lastMonthStart: '2027-02-28T16:00:00.000Z', lastMonthSameDayEnd: '2027-03-02T15:59:59.999Z',
    });
  });
});
