// money: an amount with `decimals` places (default 2), kept as an exact decimal string.
import { InputNumber } from 'antd';
import { placeholderOf, type WidgetDef, type WidgetProps } from './types';

function MoneyWidget({ value, onChange, disabled, readOnly, schema }: WidgetProps) {
  return (
    <InputNumber<string>
      stringMode
      style={{ width: '100%' }}
      value={value === undefined || value === null || value === '' ? null : String(value)}
      precision={schema.decimals ?? 2}
      min={schema.min === undefined ? undefined : String(schema.min)}
      max={schema.max === undefined ? undefined : String(schema.max)}
      disabled={disabled}
      readOnly={readOnly}
      placeholder={placeholderOf(schema, false)}
      onChange={(v) => onChange?.(v === null || v === '' ? undefined : v)}
    />
  );
}

const money: WidgetDef = { component: MoneyWidget };
export default money;
