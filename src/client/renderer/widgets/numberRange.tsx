// numberRange (filters): from – to, sent as [from, to] (exact decimal strings); either side may stay
// empty. Business number boxes (widgets/NumberText): no stepping, nothing changed silently.
import { Space } from 'antd';
import { NumberText } from '../../widgets/NumberText';
import type { WidgetDef, WidgetProps } from './types';

function NumberRangeWidget({ value, onChange, disabled, schema }: WidgetProps) {
  const [from, to] = Array.isArray(value) ? (value as (string | null)[]) : [null, null];
  const set = (i: 0 | 1, v: string | number | undefined) => {
    const next: (string | null)[] = [from ?? null, to ?? null];
    next[i] = v === undefined ? null : String(v);
    onChange?.(next[0] === null && next[1] === null ? undefined : next);
  };
  // Without `decimals` a filter bound may carry a few (prices, rates).
  const decimals = schema.decimals ?? 4;
  return (
    <Space.Compact style={{ width: '100%' }}>
      <NumberText style={{ width: '50%' }} aria-label={`${schema.title}最小值`} value={from ?? undefined} decimals={decimals} signed disabled={disabled} placeholder="最小值" onValue={(v) => set(0, v)} />
      <NumberText style={{ width: '50%' }} aria-label={`${schema.title}最大值`} value={to ?? undefined} decimals={decimals} signed disabled={disabled} placeholder="最大值" onValue={(v) => set(1, v)} />
    </Space.Compact>
  );
}

const numberRange: WidgetDef = { component: NumberRangeWidget, list: true };
export default numberRange;
