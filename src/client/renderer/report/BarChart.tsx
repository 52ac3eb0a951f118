// A small SVG bar chart for reports: one group of bars per x label (one bar per series), a y axis with
// the line chart's nice ticks (from zero, negatives included), a legend, and each bar's value in its
// tooltip. Sized to its container. The axis arithmetic is shared with charts/lineChart.ts.
import { useMemo, useState } from 'react';
import { useWidth } from '../charts/useWidth';
import { labelIndices, niceTicks, scale } from '../charts/lineChart';

export interface BarSeries {
  name: string;
  values: number[];
}

export interface BarChartProps {
  labels: string[];
  series: BarSeries[];
  height?: number;
  decimals?: number;
}

const PAD = { left: 72, right: 16, top: 28, bottom: 36 };
export const BAR_COLOURS = ['#1677ff', '#52c41a', '#faad14', '#eb2f96', '#722ed1'];


/** A label cut to about `max` characters (wide characters count double). */
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

export function BarChart({ labels, series, height = 280, decimals = 2 }: BarChartProps) {
  const [ref, width] = useWidth();
  const layout = useMemo(() => {
    const all = series.flatMap((s) => s.values).filter(Number.isFinite);
    const { lo, hi, ticks } = niceTicks(Math.min(0, ...all), Math.max(0, ...all));
    const left = PAD.left;
    const right = width - PAD.right;
    const top = PAD.top;
    const bottom = height - PAD.bottom;
    const slot = (right - left) / Math.max(1, labels.length);
    const bar = Math.max(2, Math.min(28, (slot * 0.7) / Math.max(1, series.length)));
    const sy = scale(lo, hi, bottom, top);
    const shown = labelIndices(labels.length, Math.max(2, Math.floor((right - left) / 80)));
    return { ticks, left, right, top, bottom, slot, bar, sy, shown, chars: Math.max(4, Math.floor(slot / 7)) };
  }, [labels, series, width, height]);
  const { ticks, left, right, top, bottom, slot, bar, sy, shown, chars } = layout;
  const zero = sy(0);
  return (
    <div ref={ref} className="renderer-bar-chart" style={{ width: '100%' }}>
      <svg width={width} height={height} role="img" aria-label={series.map((s) => s.name).join('、') || '柱状图'}>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={left} x2={right} y1={sy(t)} y2={sy(t)} stroke="#f0f0f0" />
            <text x={left - 8} y={sy(t)} textAnchor="end" dominantBaseline="middle" fontSize={12} fill="#888">
              {t.toFixed(decimals)}
            </text>
          </g>
        ))}
        <line x1={left} x2={right} y1={zero} y2={zero} stroke="#d9d9d9" />
        {labels.map((label, i) => {
          const x0 = left + i * slot + (slot - bar * series.length) / 2;
          return (
            <g key={i} className="renderer-bar-group">
              {series.map((s, k) => {
                const v = s.values[i] ?? 0;
                const y = sy(v);
                return (
                  <rect key={k} x={x0 + k * bar} y={Math.min(y, zero)} width={bar - 1} height={Math.max(1, Math.abs(zero - y))} fill={BAR_COLOURS[k % BAR_COLOURS.length]}>
                    <title>{`${label}\n${s.name}：${v.toFixed(decimals)}`}</title>
                  </rect>
                );
              })}
              {shown.includes(i) && (
                <text x={left + i * slot + slot / 2} y={bottom + 18} textAnchor="middle" fontSize={12} fill="#888">
                  {shortLabel(label, chars)}
                </text>
              )}
            </g>
          );
        })}
        {series.map((s, k) => (
          <g key={s.name} transform={`translate(${left + k * 120}, 8)`}>
            <rect width={10} height={10} fill={BAR_COLOURS[k % BAR_COLOURS.length]} />
            <text x={14} y={9} fontSize={12} fill="#555">
              {s.name}
            </text>
          </g>
        ))}
      </svg>
    </div>
  );
}
