// switch: on/off for a boolean field.
import { Switch } from 'antd';
import { truthy } from '../columns/boolean';
import type { WidgetDef, WidgetProps } from './types';

function SwitchWidget({ value, onChange, disabled, readOnly, schema }: WidgetProps) {
  return (
    <Switch
      aria-label={schema.title}
      checked={truthy(value)}
      onChange={(v) => onChange?.(v)}
      disabled={disabled || readOnly}
      checkedChildren={schema.trueText}
      unCheckedChildren={schema.falseText}
    />
  );
}

const switchWidget: WidgetDef = { component: SwitchWidget, choice: true };
export default switchWidget;
