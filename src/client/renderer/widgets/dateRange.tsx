// dateRange: [from, to] as "YYYY-MM-DD" days. Either end may be left open.
import { DatePicker } from 'antd';
import type { Dayjs } from 'dayjs';
import { DEFAULT_DATE_PATTERN } from '../../../core/format';
import { toDay } from './date';
import type { WidgetDef, WidgetProps } from './types';

function DateRangeWidget({ value, onChange, disabled, schema }: WidgetProps) {
  const [from, to] = Array.isArray(value) ? value : [];
  const commit = (range: [Dayjs | null, Dayjs | null] | null) => {
    const a = range?.[0]?.format(DEFAULT_DATE_PATTERN) ?? null;
    const b = range?.[1]?.format(DEFAULT_DATE_PATTERN) ?? null;
    if (a === (from ?? null) && b === (to ?? null)) return;
    onChange?.(a === null && b === null ? undefined : [a, b]);
  };
  return (
    <DatePicker.RangePicker
      style={{ width: '100%' }}
      value={[toDay(from), toDay(to)]}
      allowEmpty={[true, true]}
      aria-label={schema.title}
      onChange={(range) => commit(range)}
      // A day typed and confirmed with Enter in one box is kept at once: the picker otherwise holds it
      // only in its panel, and the next box's Enter submitted the range without it (Tab kept it).
      onCalendarChange={(range) => commit(range)}
      disabled={disabled}
    />
  );
}

const dateRange: WidgetDef = { component: DateRangeWidget, choice: true, list: true, wide: true };
export default dateRange;
