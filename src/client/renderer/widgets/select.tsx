// select: choices from static options, a dictionary or a remote option code; searchable by label.
import { Select } from 'antd';
import { useOptions } from '../data/useOptions';
import { placeholderOf, type WidgetDef, type WidgetProps } from './types';

function SelectWidget({ value, onChange, disabled, readOnly, schema, mode }: WidgetProps) {
  const { options, loading } = useOptions(schema);
  return (
    <Select
      style={{ width: '100%' }}
      value={value === undefined || value === null || value === '' ? undefined : (value as string)}
      onChange={(v: unknown) => onChange?.(v === undefined || (Array.isArray(v) && v.length === 0) ? undefined : v)}
      mode={schema.multiple ? 'multiple' : undefined}
      options={options.map((o) => ({ value: o.value as string, label: o.label }))}
      loading={loading}
      disabled={disabled || readOnly}
      allowClear={mode === 'filter' || !readOnly}
      showSearch
      optionFilterProp="label"
      maxTagCount="responsive"
      placeholder={placeholderOf(schema, true)}
    />
  );
}

const select: WidgetDef = { component: SelectWidget, choice: true };
export default select;
