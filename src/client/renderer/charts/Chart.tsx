// <Chart type="bar" data={…}/>: draws a registered chart part by name, loading its chunk on first use.
// An unknown name draws an error box instead of crashing the screen.
import { Alert, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { chartParts } from '../registries';
import type { ChartData, ChartPartDef } from './types';

export interface ChartProps {
  type: string;
  data: ChartData;
  height?: number;
  decimals?: number;
  theme?: 'light' | 'dark';
  unit?: string;
}

export function Chart({ type, ...rest }: ChartProps) {
  const [part, setPart] = useState<ChartPartDef | undefined>(() => chartParts.peek(type));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    if (!chartParts.has(type)) {
      setError(`未注册的图表类型：${type}`);
      return;
    }
    setError(null);
    chartParts.load(type).then(
      (p) => live && setPart(() => p),
      (e: unknown) => live && setError(`图表加载失败：${String(e)}`),
    );
    return () => {
      live = false;
    };
  }, [type]);
  if (error) return <Alert type="error" showIcon message={error} />;
  if (!part) return <Spin style={{ display: 'block', margin: '48px auto' }} />;
  const Part = part.component;
  return <Part {...rest} />;
}
