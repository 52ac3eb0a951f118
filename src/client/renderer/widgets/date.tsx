// date: a calendar day, kept as "YYYY-MM-DD" (the server turns day bounds into company-time instants).
import { DatePicker } from 'antd';
import dayjs from 'dayjs';
import { DEFAULT_DATE_PATTERN } from '../../../core/format';
import { placeholderOf, type WidgetDef, type WidgetProps } from './types';

export function toDay(v: unknown): dayjs.Dayjs | null {
  if (v === undefined || v === null || v === '') return null;
  const d = dayjs(String(v).slice(0, 10), DEFAULT_DATE_PATTERN);
  return d.isValid() ? d : null;
}

function DateWidget({ value, onChange, disabled, readOnly, schema }: WidgetProps) {
  return (
    <DatePicker
      aria-label={schema.title}
      style={{ width: '100%' }}
      value={toDay(value)}
      onChange={(d) => onChange?.(d ? d.format(DEFAULT_DATE_PATTERN) : undefined)}
      disabled={disabled}
      inputReadOnly={readOnly}
      placeholder={placeholderOf(schema, true)}
    />
  );
}

const date: WidgetDef = { component: DateWidget, choice: true };
export default date;
