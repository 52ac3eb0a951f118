// The chart above a report's table: the rows now shown (the current page, in the table's order) drawn
// by the chart part the schema names for the grouping — `types: {"month": "line"}`, else `type`
// (default bar: a bar group per row, a bar per measure). Pie and chinaMap draw the first measure.
import { Card, Empty, Spin } from 'antd';
import { useMemo } from 'react';
import { Chart } from '../charts/Chart';
import { chartDataOf, isEmptyChart } from '../charts/fromRows';
import type { ReportChart as ReportChartSchema } from '../types';

type Row = Record<string, unknown>;

export interface ReportChartProps {
  chart: ReportChartSchema;
  grouping: string;
  rows: Row[];
  loading: boolean;
}

/** The part drawing a grouping: its own entry in `types`, else the chart's `type`, else bar. */
export function reportChartType(chart: ReportChartSchema, grouping: string): string {
  return chart.types?.[grouping] ?? chart.type ?? 'bar';
}

export function ReportChart({ chart, grouping, rows, loading }: ReportChartProps) {
  const type = reportChartType(chart, grouping);
  const x = chart.x ?? 'label';
  const data = useMemo(() => chartDataOf(type, rows, x, chart.series), [type, rows, x, chart.series]);
  let content: React.ReactNode;
  if (loading && !rows.length) content = <Spin style={{ display: 'block', margin: '48px auto' }} />;
  else if (!rows.length || isEmptyChart(data)) content = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" />;
  else content = <Chart type={type} data={data} height={chart.height} decimals={chart.decimals} unit={chart.unit} />;
  return (
    <Card size="small" title={chart.title} className="renderer-report-chart" style={{ marginBottom: 12 }}>
      <div style={{ minHeight: chart.height ?? 280 }}>{content}</div>
    </Card>
  );
}
