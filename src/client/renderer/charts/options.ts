// Chart data (types.ts) → an ECharts option, one builder per part. Pure (only echarts' types are
// imported), so each mapping is unit-tested without a DOM: tooltips show values with the part's
// decimals, thousands separators and unit; long category labels are cut so the axis stays readable.
import type { ComposeOption } from 'echarts/core';
import type { BarSeriesOption, GaugeSeriesOption, LineSeriesOption, MapSeriesOption, PieSeriesOption } from 'echarts/charts';
import type {
  GridComponentOption,
  LegendComponentOption,
  TooltipComponentOption,
  VisualMapComponentOption,
} from 'echarts/components';
import { formatNumber } from '../../../core/format';
import { provinceItems } from './provinces';
import { isItemsData, isSeriesData, type ChartData, type GaugeData, type ItemsData, type SeriesData } from './types';

export type ChartOption = ComposeOption<
  | LineSeriesOption
  | BarSeriesOption
  | PieSeriesOption
  | GaugeSeriesOption
  | MapSeriesOption
  | GridComponentOption
  | LegendComponentOption
  | TooltipComponentOption
  | VisualMapComponentOption
>;

export interface OptionContext {
  /** Decimals of values in tooltips and labels. */
  decimals: number;
  unit?: string;
  /** Animations (off in end-to-end runs: a screenshot must not catch a bar half grown). */
  animation: boolean;
  /** The wall screen's dark look: colour scales run from dark (little) to bright (much) there. */
  theme?: 'light' | 'dark';
}

/**
 * Series colours: the app's blue first, then antd's green, gold, magenta and purple — distinct from each
 * other and readable on white and on the wall screen's dark background alike.
 */
export const PALETTE = ['#1677ff', '#52c41a', '#faad14', '#eb2f96', '#722ed1', '#13c2c2', '#fa541c', '#2f54eb'];

/** A value as the tooltip shows it: 12,345.60 元. Missing values show as -. */
export function formatValue(v: unknown, ctx: Pick<OptionContext, 'decimals' | 'unit'>): string {
  const n = Array.isArray(v) ? v[v.length - 1] : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) return '-';
  const text = formatNumber(n, ctx.decimals);
  return ctx.unit ? `${text} ${ctx.unit}` : text;
}

/** An axis label: thousands separators and no more decimals than the values carry (1,500, 7.125). */
export function axisValue(v: number, decimals: number): string {
  const s = formatNumber(v, decimals);
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/** A category label cut to about `max` characters (wide characters count double), … when cut. */
export function shortLabel(text: string, max: number): string {
  let w = 0;
  let out = '';
  for (const ch of text) {
    w += ch.charCodeAt(0) > 0xff ? 2 : 1;
    if (w > max) return `${out}…`;
    out += ch;
  }
  return out;
}

/** Any data as categories and series (a part given items or a gauge value still draws something). */
export function asSeries(d: ChartData): SeriesData {
  if (isSeriesData(d)) return d;
  if (isItemsData(d)) return { labels: d.items.map((i) => i.name), series: [{ name: d.name ?? '', values: d.items.map((i) => i.value) }] };
  return { labels: [d.name ?? ''], series: [{ name: d.name ?? '', values: [d.value] }] };
}

/** Any data as named values: categories' first series, or the gauge's one value. */
export function asItems(d: ChartData): ItemsData {
  if (isItemsData(d)) return d;
  if (isSeriesData(d)) {
    const first = d.series[0];
    return { name: first?.name, items: d.labels.map((name, i) => ({ name, value: first?.values[i] ?? 0 })) };
  }
  return { name: d.name, items: [{ name: d.name ?? '', value: d.value }] };
}

function asGauge(d: ChartData): GaugeData {
  if (!isSeriesData(d) && !isItemsData(d)) return d;
  const items = asItems(d).items;
  const value = items.reduce((s, i) => s + i.value, 0);
  return { value, max: Math.max(value, 1), name: asItems(d).name };
}

const named = (s: { name: string }, i: number) => s.name || `系列${i + 1}`;

/** The tooltip's frame: one class to find it by (tests, print styles), no slide when animations are off. */
function tipFrame(ctx: OptionContext): TooltipComponentOption {
  return { confine: true, className: 'renderer-chart-tooltip', transitionDuration: ctx.animation ? 0.4 : 0 };
}

function tooltip(ctx: OptionContext, trigger: 'axis' | 'item'): TooltipComponentOption {
  return { ...tipFrame(ctx), trigger, valueFormatter: (v) => formatValue(v, ctx) };
}

function categoryChart(d: SeriesData, ctx: OptionContext, kind: 'line' | 'bar' | 'stackedBar'): ChartOption {
  const legend = d.series.length > 1 || d.series.some((s) => s.name);
  const series = d.series.map((s, i): LineSeriesOption | BarSeriesOption =>
    kind === 'line'
      ? { type: 'line', name: named(s, i), data: s.values, showSymbol: d.labels.length <= 60, connectNulls: false }
      : { type: 'bar', name: named(s, i), data: s.values, barMaxWidth: 28, ...(kind === 'stackedBar' ? { stack: 'total' } : {}) },
  );
  return {
    animation: ctx.animation,
    color: PALETTE,
    tooltip: tooltip(ctx, 'axis'),
    legend: legend ? { top: 0, type: 'scroll' } : { show: false },
    grid: { left: 12, right: 24, top: legend ? 36 : 16, bottom: 8, containLabel: true },
    xAxis: {
      type: 'category',
      data: d.labels,
      boundaryGap: kind !== 'line',
      axisLabel: { hideOverlap: true, formatter: (v: string) => shortLabel(v, 16) },
    },
    // whole numbers (counts) never get 0.2-steps that the labels would round to 0 0 1 1
    yAxis: { type: 'value', scale: kind === 'line', ...(ctx.decimals === 0 ? { minInterval: 1 } : {}), axisLabel: { formatter: (v: number) => axisValue(v, ctx.decimals) } },
    series,
  };
}

export function lineOption(d: ChartData, ctx: OptionContext): ChartOption {
  return categoryChart(asSeries(d), ctx, 'line');
}

export function barOption(d: ChartData, ctx: OptionContext): ChartOption {
  return categoryChart(asSeries(d), ctx, 'bar');
}

export function stackedBarOption(d: ChartData, ctx: OptionContext): ChartOption {
  return categoryChart(asSeries(d), ctx, 'stackedBar');
}

export function pieOption(d: ChartData, ctx: OptionContext): ChartOption {
  const { name, items } = asItems(d);
  return {
    animation: ctx.animation,
    color: PALETTE,
    tooltip: { ...tipFrame(ctx), trigger: 'item', formatter: (p) => pieTip(p as PieTipParams, ctx) },
    legend: { type: 'scroll', orient: 'vertical', left: 8, top: 'middle', formatter: (n: string) => shortLabel(n, 16) },
    series: [
      {
        type: 'pie',
        name: name ?? '',
        // room on both sides for the slices' labels (name and share)
        radius: ['30%', '58%'],
        center: ['58%', '52%'],
        data: items.map((i) => ({ name: i.name, value: i.value })),
        label: { formatter: (p) => `${shortLabel(p.name ?? '', 12)} ${(p.percent ?? 0).toFixed(1)}%` },
      },
    ],
  };
}

interface PieTipParams {
  seriesName?: string;
  name: string;
  value: unknown;
  percent?: number;
  marker?: string;
}

function pieTip(p: PieTipParams, ctx: OptionContext): string {
  const head = p.seriesName ? `${escapeHtml(p.seriesName)}<br/>` : '';
  return `${head}${p.marker ?? ''}${escapeHtml(p.name)}：${formatValue(p.value, ctx)}（${(p.percent ?? 0).toFixed(1)}%）`;
}

/** Tooltip formatters return HTML: names come from data (a client's province, a product), so escaped. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function gaugeOption(d: ChartData, ctx: OptionContext): ChartOption {
  const g = asGauge(d);
  return {
    animation: ctx.animation,
    color: PALETTE,
    tooltip: tooltip(ctx, 'item'),
    series: [
      {
        type: 'gauge',
        name: g.name ?? '',
        min: 0,
        max: g.max,
        progress: { show: true, width: 14 },
        axisLine: { lineStyle: { width: 14 } },
        axisLabel: { formatter: (v: number) => axisValue(v, ctx.decimals) },
        detail: { valueAnimation: ctx.animation, fontSize: 22, offsetCenter: [0, '70%'], formatter: (v: number) => formatValue(v, ctx) },
        title: { offsetCenter: [0, '95%'] },
        data: [{ value: g.value, name: g.name ?? '' }],
      },
    ],
  };
}

/** The registered map's name (china.tsx registers the shipped GeoJSON under it). */
export const CHINA_MAP = 'china';

export function chinaMapOption(d: ChartData, ctx: OptionContext): ChartOption {
  const { name, items } = asItems(d);
  const { placed } = provinceItems(items);
  const max = Math.max(1, ...placed.map((i) => i.value));
  return {
    animation: ctx.animation,
    color: PALETTE,
    tooltip: { ...tipFrame(ctx), trigger: 'item', formatter: (p) => mapTip(p as PieTipParams, name, ctx) },
    visualMap: {
      type: 'continuous',
      min: 0,
      max,
      left: 8,
      bottom: 8,
      calculable: false,
      text: ['高', '低'],
      // more is darker on white and brighter on the dark wall screen
      inRange: { color: ctx.theme === 'dark' ? ['#15325b', '#1668dc', '#8dc5f8'] : ['#e6f4ff', '#69b1ff', '#0958d9'] },
      formatter: (v) => axisValue(Number(v), ctx.decimals),
    },
    series: [
      {
        type: 'map',
        map: CHINA_MAP,
        name: name ?? '',
        roam: false,
        layoutCenter: ['50%', '50%'],
        layoutSize: '100%',
        aspectScale: 0.8,
        label: { show: false },
        emphasis: { label: { show: true } },
        data: placed,
      },
    ],
  };
}

function mapTip(p: PieTipParams, name: string | undefined, ctx: OptionContext): string {
  const head = name ? `${escapeHtml(name)}<br/>` : '';
  const v = typeof p.value === 'number' && Number.isFinite(p.value) ? formatValue(p.value, ctx) : formatValue(0, ctx);
  return `${head}${escapeHtml(p.name)}：${v}`;
}
