// number: a business number box (see widgets/NumberText: no stepping, no clamping, no silent rounding);
// integers (decimals 0 or none) reach the form as numbers, decimals as exact strings, so nothing passes
// through a binary float. min/max are checked by the form's rules, which name the bound.
import { NumberText } from '../../widgets/NumberText';
import { placeholderOf, type WidgetDef, type WidgetProps } from './types';

function NumberWidget({ value, onChange, disabled, readOnly, schema }: WidgetProps) {
  return (
    <NumberText
      style={{ width: '100%' }}
      aria-label={schema.title}
      title={schema.title}
      value={value}
      decimals={schema.decimals ?? 0}
      signed={schema.min !== undefined && Number(schema.min) < 0}
      disabled={disabled}
      readOnly={readOnly}
      placeholder={placeholderOf(schema, false)}
      onValue={(v) => onChange?.(v)}
    />
  );
}

const number: WidgetDef = { component: NumberWidget };
export default number;
