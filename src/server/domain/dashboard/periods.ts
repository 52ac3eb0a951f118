// The company days a dashboard compares: today against yesterday, this month so far against last month
// up to the same day of the month (a fair comparison on the 10th is the 1st–10th of last month, not the
// whole of it). Days are company calendar days ("YYYY-MM-DD").
import { companyDayRange } from '../../../core/format.ts';

export interface Periods {
  today: string;
  yesterday: string;
  monthStart: string;
  lastMonthStart: string;
  /** Last month's day matching today (its last day when it is shorter). */
  lastMonthSameDay: string;
  /** UTC instants bounding the company days, for columns holding instants (postedAt). */
  at: { todayStart: string; todayEnd: string; yesterdayStart: string; yesterdayEnd: string; monthStart: string; lastMonthStart: string; lastMonthSameDayEnd: string };
}

const pad = (n: number) => String(n).padStart(2, '0');

function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

export function periodsOf(today: string, tzHours: number): Periods {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const py = m === 1 ? y - 1 : y;
  const pm = m === 1 ? 12 : m - 1;
  const lastMonthDays = new Date(Date.UTC(py, pm, 0)).getUTCDate();
  const lastMonthStart = `${py}-${pad(pm)}-01`;
  const lastMonthSameDay = `${py}-${pad(pm)}-${pad(Math.min(d, lastMonthDays))}`;
  const monthStart = `${y}-${pad(m)}-01`;
  const yesterday = addDays(today, -1);
  const [todayStart, todayEnd] = companyDayRange(today, tzHours);
  return {
    today, yesterday, monthStart, lastMonthStart, lastMonthSameDay,
    at: {
      todayStart, todayEnd,
      yesterdayStart: companyDayRange(yesterday, tzHours)[0],
      yesterdayEnd: companyDayRange(yesterday, tzHours)[1],
      monthStart: companyDayRange(monthStart, tzHours)[0],
      lastMonthStart: companyDayRange(lastMonthStart, tzHours)[0],
      lastMonthSameDayEnd: companyDayRange(lastMonthSameDay, tzHours)[1],
    },
  };
}

/** The days from `from` to `to`, inclusive. */
export function daysFrom(from: string, to: string): string[] {
  const out: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) out.push(day);
  return out;
}
