// textarea: several lines, with a character count when the schema limits the length.
import { Input } from 'antd';
import { placeholderOf, type WidgetDef, type WidgetProps } from './types';

function TextareaWidget({ value, onChange, disabled, readOnly, schema }: WidgetProps) {
  return (
    <Input.TextArea
      aria-label={schema.title}
      value={value === undefined || value === null ? '' : String(value)}
      onChange={(e) => onChange?.(e.target.value)}
      disabled={disabled}
      readOnly={readOnly}
      maxLength={schema.maxLength}
      showCount={!!schema.maxLength}
      autoSize={{ minRows: schema.rows ?? 3, maxRows: Math.max(8, (schema.rows ?? 3) * 2) }}
      placeholder={placeholderOf(schema, false)}
    />
  );
}

const textarea: WidgetDef = { component: TextareaWidget };
export default textarea;
