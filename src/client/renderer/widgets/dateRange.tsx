// dateRange: [from, to] as "YYYY-MM-DD" days.
import { DatePicker } from 'antd';
import { DEFAULT_DATE_PATTERN } from '../../../core/format';
import { toDay } from './date';
import type { WidgetDef, WidgetProps } from './types';

function DateRangeWidget({ value, onChange, disabled, schema }: WidgetProps) {
  const [from, to] = Array.isArray(value) ? value : [];
  return (
    <DatePicker.RangePicker
      style={{ width: '100%' }}
      value={[toDay(from), toDay(to)]}
      allowEmpty={[true, true]}
      aria-label={schema.title}
      onChange={(range) => {
        const a = range?.[0]?.format(DEFAULT_DATE_PATTERN) ?? null;
        const b = range?.[1]?.format(DEFAULT_DATE_PATTERN) ?? null;
        onChange?.(a === null && b === null ? undefined : [a, b]);
      }}
      disabled={disabled}
    />
  );
}

const dateRange: WidgetDef = { component: DateRangeWidget, choice: true, list: true };
export default dateRange;
