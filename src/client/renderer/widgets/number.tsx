// number: a number input; integers (decimals 0 or none) are emitted as numbers, decimals as exact
// strings (antd stringMode) so nothing passes through a binary float.
import { InputNumber } from 'antd';
import { placeholderOf, type WidgetDef, type WidgetProps } from './types';

function NumberWidget({ value, onChange, disabled, readOnly, schema }: WidgetProps) {
  const decimals = schema.decimals;
  const exact = decimals !== undefined && decimals > 0;
  return (
    <InputNumber<string>
      stringMode
      style={{ width: '100%' }}
      value={value === undefined || value === null || value === '' ? null : String(value)}
      precision={decimals}
      min={schema.min === undefined ? undefined : String(schema.min)}
      max={schema.max === undefined ? undefined : String(schema.max)}
      disabled={disabled}
      readOnly={readOnly}
      placeholder={placeholderOf(schema, false)}
      onChange={(v) => {
        if (v === null || v === '') onChange?.(undefined);
        else onChange?.(exact ? v : Number(v));
      }}
    />
  );
}

const number: WidgetDef = { component: NumberWidget };
export default number;
