// money: an amount with `decimals` places (default 2), kept as an exact decimal string (see
// widgets/NumberText: no stepping, no clamping, no silent rounding).
import { NumberText } from '../../widgets/NumberText';
import { placeholderOf, type WidgetDef, type WidgetProps } from './types';

function MoneyWidget({ value, onChange, disabled, readOnly, schema }: WidgetProps) {
  const decimals = schema.decimals ?? 2;
  return (
    <NumberText
      style={{ width: '100%' }}
      aria-label={schema.title}
      title={schema.title}
      value={value}
      decimals={decimals}
      signed={schema.min !== undefined && Number(schema.min) < 0}
      disabled={disabled}
      readOnly={readOnly}
      placeholder={placeholderOf(schema, false)}
      // A whole amount typed as "12" is still the decimal text the server reads.
      onValue={(v) => onChange?.(v === undefined ? undefined : String(v))}
    />
  );
}

const money: WidgetDef = { component: MoneyWidget };
export default money;
