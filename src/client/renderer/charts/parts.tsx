// The chart parts line, bar, stackedBar, pie and gauge over ECharts (one lazily loaded chunk with
// echartsCore; the map is chinaMap.tsx). Each maps the part's data to an option (options.ts) and
// draws it with <EChart>.
import { useMemo } from 'react';
import { chartAnimation } from './echartsCore';
import { EChart } from './EChart';
import { barOption, gaugeOption, lineOption, pieOption, stackedBarOption, type ChartOption, type OptionContext } from './options';
import { isItemsData, isSeriesData, type ChartData, type ChartPartDef, type ChartPartProps } from './types';

/** What a chart shows, in words: its series' names, or the kind of chart. */
export function chartLabel(d: ChartData, fallback: string): string {
  if (isSeriesData(d)) return d.series.map((s) => s.name).filter(Boolean).join('、') || fallback;
  if (isItemsData(d)) return d.name || fallback;
  return d.name || fallback;
}

export function optionContext(p: ChartPartProps): OptionContext {
  return { decimals: p.decimals ?? 2, unit: p.unit, animation: chartAnimation(), theme: p.theme };
}

export function echartsPart(build: (d: ChartData, ctx: OptionContext) => ChartOption, fallback: string): ChartPartDef {
  function Part(p: ChartPartProps) {
    const { data, decimals, unit, theme } = p;
    const option = useMemo(() => build(data, optionContext({ data, decimals, unit, theme })), [data, decimals, unit, theme]);
    return <EChart option={option} height={p.height} theme={p.theme} label={chartLabel(data, fallback)} />;
  }
  return { component: Part };
}

export const line = echartsPart(lineOption, '折线图');
export const bar = echartsPart(barOption, '柱状图');
export const stackedBar = echartsPart(stackedBarOption, '堆叠柱状图');
export const pie = echartsPart(pieOption, '饼图');
export const gauge = echartsPart(gaugeOption, '仪表盘');
