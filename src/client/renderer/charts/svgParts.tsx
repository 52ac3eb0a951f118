// Interim chart parts over the hand-written SVG charts (line, bar) until the chart library lands.
import { BarChart } from '../report/BarChart';
import { LineChart } from './LineChart';
import { isItemsData, isSeriesData, type ChartPartDef, type ChartPartProps, type SeriesData } from './types';

function asSeries(props: ChartPartProps): SeriesData {
  const d = props.data;
  if (isSeriesData(d)) return d;
  if (isItemsData(d)) return { labels: d.items.map((i) => i.name), series: [{ name: '', values: d.items.map((i) => i.value) }] };
  return { labels: [d.name ?? ''], series: [{ name: d.name ?? '', values: [d.value] }] };
}

function Line(props: ChartPartProps) {
  const d = asSeries(props);
  const first = d.series[0];
  const points = d.labels.map((x, i) => ({ x, y: first?.values[i] ?? 0 }));
  return <LineChart points={points} height={props.height} name={first?.name} decimals={props.decimals} />;
}

function Bar(props: ChartPartProps) {
  const d = asSeries(props);
  return <BarChart labels={d.labels} series={d.series} height={props.height} decimals={props.decimals} />;
}

export const line: ChartPartDef = { component: Line };
export const bar: ChartPartDef = { component: Bar };
