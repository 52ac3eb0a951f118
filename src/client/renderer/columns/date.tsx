// date: a calendar day ("2024-05-01") is shown as it is; an instant is shown as its day in the
// company time zone (spec §9).
import { DEFAULT_DATE_PATTERN, formatTime } from '../../../core/format';
import { EMPTY, isEmpty, type ColumnTypeDef } from './types';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

const date: ColumnTypeDef = {
  width: 110,
  searchWidget: 'dateRange',
  cell(column, { env }) {
    const empty = column.empty ?? EMPTY;
    const pattern = column.format ?? DEFAULT_DATE_PATTERN;
    return (v) => {
      if (isEmpty(v)) return empty;
      if (typeof v === 'string' && DAY.test(v) && pattern === DEFAULT_DATE_PATTERN) return v;
      return formatTime(v as string | number, DAY.test(String(v)) ? 0 : env.tz, pattern) || empty;
    };
  },
};
export default date;
