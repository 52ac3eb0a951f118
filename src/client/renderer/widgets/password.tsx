// password: a masked text input (never prefilled by the browser's saved logins).
import { Input } from 'antd';
import { placeholderOf, type WidgetDef, type WidgetProps } from './types';

function PasswordWidget({ value, onChange, disabled, readOnly, schema }: WidgetProps) {
  return (
    <Input.Password
      aria-label={schema.title}
      value={value === undefined || value === null ? '' : String(value)}
      onChange={(e) => onChange?.(e.target.value === '' ? undefined : e.target.value)}
      disabled={disabled}
      readOnly={readOnly}
      maxLength={schema.maxLength}
      autoComplete="new-password"
      placeholder={placeholderOf(schema, false)}
    />
  );
}

const password: WidgetDef = { component: PasswordWidget };
export default password;
