// The company days of a report over the ledgers' recent rows (其他出入库, 应用使用统计): the range asked, or,
// with none, this month so far — never every row ever recorded — and at most MAX_DAYS.
import { validationError } from '../../http/errors.ts';
import { companyToday } from './closing.ts';
import { dayRange } from './common.ts';

export const MAX_DAYS = 366;

export function daysOrThisMonth(raw: unknown, tzHours: number): { from: string; to: string } {
  const range = dayRange(raw, tzHours);
  const today = companyToday(tzHours);
  const to = range.to ?? (range.from && range.from > today ? range.from : today);
  const from = range.from ?? `${to.slice(0, 7)}-01`;
  if ((Date.parse(to) - Date.parse(from)) / 86_400_000 + 1 > MAX_DAYS) throw validationError([{ field: 'dateRange', message: `日期范围不能超过 ${MAX_DAYS} 天` }]);
  return { from, to };
}
