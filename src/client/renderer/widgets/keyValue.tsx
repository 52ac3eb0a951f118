// keyValue: name → value pairs edited as rows (e-mail template parameters, extra attributes). The
// value is a plain object {name: text}; rows with an empty name are kept while editing but not
// emitted. A name used twice keeps its last value.
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Input, Space } from 'antd';
import { useEffect, useRef, useState } from 'react';
import type { WidgetDef, WidgetProps } from './types';

export interface Pair {
  key: string;
  value: string;
}

export function pairsOf(value: unknown): Pair[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>).map(([key, v]) => ({ key, value: v === null || v === undefined ? '' : String(v) }));
}

/** The object the pairs stand for (undefined when no pair has a name). */
export function objectOf(pairs: readonly Pair[]): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const k = p.key.trim();
    if (k) out[k] = p.value;
  }
  return Object.keys(out).length ? out : undefined;
}

function KeyValueWidget({ value, onChange, disabled, readOnly, schema }: WidgetProps) {
  const [pairs, setPairs] = useState<Pair[]>(() => pairsOf(value));
  const emitted = useRef(JSON.stringify(objectOf(pairs) ?? null));
  // A value set from outside (reset, record loaded) replaces the rows.
  useEffect(() => {
    const key = JSON.stringify(value ?? null);
    if (key !== emitted.current) {
      emitted.current = key;
      setPairs(pairsOf(value));
    }
  }, [value]);
  const change = (next: Pair[]) => {
    setPairs(next);
    const obj = objectOf(next);
    emitted.current = JSON.stringify(obj ?? null);
    onChange?.(obj);
  };
  const locked = disabled || readOnly;
  return (
    <div className="renderer-key-value">
      {pairs.map((p, i) => (
        <Space.Compact key={i} style={{ display: 'flex', marginBottom: 6 }}>
          <Input
            style={{ width: '40%' }}
            value={p.key}
            disabled={locked}
            placeholder="参数名"
            aria-label={`${schema.title}参数名${i + 1}`}
            onChange={(e) => change(pairs.map((x, j) => (j === i ? { ...x, key: e.target.value } : x)))}
          />
          <Input
            style={{ flex: 1 }}
            value={p.value}
            disabled={locked}
            placeholder="参数值"
            aria-label={`${schema.title}参数值${i + 1}`}
            onChange={(e) => change(pairs.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))}
          />
          {!locked && <Button icon={<DeleteOutlined />} aria-label="删除" onClick={() => change(pairs.filter((_, j) => j !== i))} />}
        </Space.Compact>
      ))}
      {!locked && (
        <Button type="dashed" icon={<PlusOutlined />} onClick={() => setPairs([...pairs, { key: '', value: '' }])}>
          添加{schema.title}
        </Button>
      )}
    </div>
  );
}

const keyValue: WidgetDef = { component: KeyValueWidget };
export default keyValue;
