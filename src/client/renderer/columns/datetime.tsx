// datetime: a UTC instant shown in the company time zone (spec §9).
import { DEFAULT_TIME_PATTERN, formatTime } from '../../../core/format';
import { EMPTY, isEmpty, type ColumnTypeDef } from './types';

const datetime: ColumnTypeDef = {
  width: 170,
  searchWidget: 'dateRange',
  cell(column, { env }) {
    const empty = column.empty ?? EMPTY;
    const pattern = column.format ?? DEFAULT_TIME_PATTERN;
    return (v) => (isEmpty(v) ? empty : formatTime(v as string | number, env.tz, pattern) || empty);
  },
};
export default datetime;
