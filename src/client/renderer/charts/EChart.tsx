// One ECharts instance on a div: created on mount (with the light or dark theme), given each new
// option whole, resized with its container (ResizeObserver: a collapsed menu or a wider window redraws
// the chart at its new width) and disposed on unmount, so a screen left behind holds no chart.
import { useEffect, useRef } from 'react';
import { init, type EChartsType } from './echartsCore';
import type { ChartOption } from './options';

export interface EChartProps {
  option: ChartOption;
  height?: number;
  theme?: 'light' | 'dark';
  /** What the chart shows, for screen readers (the drawing itself is an image to them). */
  label: string;
}

export function EChart({ option, height = 280, theme = 'light', label }: EChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const c = init(el, theme === 'dark' ? 'dark' : undefined, { renderer: 'svg' });
    chart.current = c;
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => c.resize());
    ro?.observe(el);
    return () => {
      ro?.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, [theme]);
  useEffect(() => {
    // notMerge: a grouping with fewer series must not keep the old ones' bars
    // transparent: the dark theme's own black background would sit as a box on the wall's panels
    chart.current?.setOption({ backgroundColor: 'transparent', ...option }, { notMerge: true });
  }, [option, theme]);
  return <div ref={ref} className={`renderer-chart renderer-chart-${theme}`} role="img" aria-label={label} style={{ width: '100%', height }} />;
}
