// The chart above a report's table: the rows now shown (the current page, in the table's order), one
// bar group per row with a bar per declared measure — or a line of the first measure for groupings
// named in `line` (months read better as a line).
import { Card, Empty, Spin } from 'antd';
import { useMemo } from 'react';
import { LineChart } from '../charts/LineChart';
import { pointsOf } from '../charts/lineChart';
import type { ReportChart as ReportChartSchema } from '../types';
import { BarChart } from './BarChart';

type Row = Record<string, unknown>;

export interface ReportChartProps {
  chart: ReportChartSchema;
  grouping: string;
  rows: Row[];
  loading: boolean;
}

/** A measure as a chart value (exact decimal text → number; the chart only draws it). */
function valueOf(v: unknown): number {
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : 0;
}

export function ReportChart({ chart, grouping, rows, loading }: ReportChartProps) {
  const x = chart.x ?? 'label';
  const asLine = (chart.line ?? []).includes(grouping);
  const bars = useMemo(
    () => ({ labels: rows.map((r) => String(r[x] ?? '')), series: chart.series.map((s) => ({ name: s.name, values: rows.map((r) => valueOf(r[s.field])) })) }),
    [rows, x, chart.series],
  );
  const first = chart.series[0];
  const points = useMemo(() => (first ? pointsOf(rows, x, first.field) : []), [rows, x, first]);
  let content: React.ReactNode;
  if (loading && !rows.length) content = <Spin style={{ display: 'block', margin: '48px auto' }} />;
  else if (!rows.length) content = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" />;
  else if (asLine && first) content = <LineChart points={points} height={chart.height} name={first.name} decimals={chart.decimals} />;
  else content = <BarChart labels={bars.labels} series={bars.series} height={chart.height} decimals={chart.decimals} />;
  return (
    <Card size="small" title={chart.title} className="renderer-report-chart" style={{ marginBottom: 12 }}>
      <div style={{ minHeight: chart.height ?? 280 }}>{content}</div>
    </Card>
  );
}
