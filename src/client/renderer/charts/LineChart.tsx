// A small SVG line chart: y axis with nice ticks and grid lines, x labels that fit, the line, dots
// when there are few points, and a hover guide with the point's x and value. Sized to its container.
import { useMemo, useState } from 'react';
import { useWidth } from './useWidth';
import { labelIndices, nearestIndex, niceTicks, scale, type Point } from './lineChart';

export interface LineChartProps {
  points: Point[];
  height?: number;
  /** Series name (tooltip). */
  name?: string;
  decimals?: number;
}

const PAD = { left: 64, right: 20, top: 16, bottom: 32 };
const LINE = '#1677ff';


export function LineChart({ points, height = 280, name, decimals = 2 }: LineChartProps) {
  const [ref, width] = useWidth();
  const [hover, setHover] = useState<number | null>(null);
  const layout = useMemo(() => {
    const ys = points.map((p) => p.y);
    const { lo, hi, ticks } = niceTicks(Math.min(...ys), Math.max(...ys));
    const left = PAD.left;
    const right = width - PAD.right;
    const top = PAD.top;
    const bottom = height - PAD.bottom;
    const sx = points.length > 1 ? scale(0, points.length - 1, left, right) : () => (left + right) / 2;
    const sy = scale(lo, hi, bottom, top);
    const path = points.map((p, i) => `${i ? 'L' : 'M'}${sx(i).toFixed(1)},${sy(p.y).toFixed(1)}`).join('');
    const labels = labelIndices(points.length, Math.max(2, Math.floor((right - left) / 90)));
    return { ticks, left, right, top, bottom, sx, sy, path, labels };
  }, [points, width, height]);
  const { ticks, left, right, top, bottom, sx, sy, path, labels } = layout;
  const h = hover !== null ? points[hover] : undefined;
  return (
    <div ref={ref} className="renderer-line-chart" style={{ position: 'relative', width: '100%' }}>
      <svg
        width={width}
        height={height}
        role="img"
        aria-label={name ?? '折线图'}
        onMouseMove={(e) => {
          const box = e.currentTarget.getBoundingClientRect();
          setHover(nearestIndex(e.clientX - box.left, points.length, left, right));
        }}
        onMouseLeave={() => setHover(null)}
      >
        {ticks.map((t) => (
          <g key={t}>
            <line x1={left} x2={right} y1={sy(t)} y2={sy(t)} stroke="#f0f0f0" />
            <text x={left - 8} y={sy(t)} textAnchor="end" dominantBaseline="middle" fontSize={12} fill="#888">
              {t.toFixed(decimals)}
            </text>
          </g>
        ))}
        <line x1={left} x2={right} y1={bottom} y2={bottom} stroke="#d9d9d9" />
        {labels.map((i) => (
          <text key={i} x={sx(i)} y={bottom + 18} textAnchor="middle" fontSize={12} fill="#888">
            {points[i]!.x}
          </text>
        ))}
        <path d={path} fill="none" stroke={LINE} strokeWidth={2} />
        {points.length <= 60 && points.map((p, i) => <circle key={i} cx={sx(i)} cy={sy(p.y)} r={3} fill="#fff" stroke={LINE} strokeWidth={1.5} />)}
        {h && hover !== null && (
          <g>
            <line x1={sx(hover)} x2={sx(hover)} y1={top} y2={bottom} stroke="#bfbfbf" strokeDasharray="4 3" />
            <circle cx={sx(hover)} cy={sy(h.y)} r={4.5} fill={LINE} />
          </g>
        )}
      </svg>
      {h && hover !== null && (
        <div
          className="renderer-line-chart-tip"
          style={{
            position: 'absolute',
            left: Math.min(sx(hover) + 12, width - 170),
            top: Math.max(0, sy(h.y) - 48),
            background: 'rgba(0,0,0,0.75)',
            color: '#fff',
            padding: '4px 8px',
            borderRadius: 4,
            fontSize: 12,
            pointerEvents: 'none',
            whiteSpace: 'nowrap',
          }}
        >
          <div>{h.x}</div>
          <div>
            {name ? `${name}：` : ''}
            {h.y.toFixed(decimals)}
          </div>
        </div>
      )}
    </div>
  );
}
