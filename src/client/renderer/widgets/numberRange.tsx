// numberRange (filters): from – to, sent as [from, to]; either side may stay empty.
import { InputNumber, Space } from 'antd';
import type { WidgetDef, WidgetProps } from './types';

function NumberRangeWidget({ value, onChange, disabled, schema }: WidgetProps) {
  const [from, to] = Array.isArray(value) ? (value as (string | null)[]) : [null, null];
  const set = (i: 0 | 1, v: string | null) => {
    const next: (string | null)[] = [from ?? null, to ?? null];
    next[i] = v === '' ? null : v;
    onChange?.(next[0] === null && next[1] === null ? undefined : next);
  };
  return (
    <Space.Compact style={{ width: '100%' }}>
      <InputNumber<string> stringMode style={{ width: '50%' }} value={from ?? null} precision={schema.decimals} disabled={disabled} placeholder="最小值" onChange={(v) => set(0, v)} />
      <InputNumber<string> stringMode style={{ width: '50%' }} value={to ?? null} precision={schema.decimals} disabled={disabled} placeholder="最大值" onChange={(v) => set(1, v)} />
    </Space.Compact>
  );
}

const numberRange: WidgetDef = { component: NumberRangeWidget, list: true };
export default numberRange;
