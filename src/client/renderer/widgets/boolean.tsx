// boolean (filters): 全部 / 是 / 否 as a select, so "not filtered" stays possible (a switch cannot say it).
import { Select } from 'antd';
import { placeholderOf, type WidgetDef, type WidgetProps } from './types';

function BooleanWidget({ value, onChange, disabled, schema }: WidgetProps) {
  return (
    <Select
      aria-label={schema.title}
      style={{ width: '100%' }}
      value={value === undefined || value === null ? undefined : (value as boolean)}
      onChange={(v: boolean | undefined) => onChange?.(v)}
      options={[
        { value: true, label: schema.trueText ?? '是' },
        { value: false, label: schema.falseText ?? '否' },
      ]}
      allowClear
      disabled={disabled}
      placeholder={placeholderOf(schema, true)}
    />
  );
}

const boolean: WidgetDef = { component: BooleanWidget, choice: true };
export default boolean;
