// The contract of a chart part: what a schema names (`line`, `bar`, `stackedBar`, `pie`, `gauge`,
// `chinaMap`) and the one data shape every part draws. Report charts, detail chart sections and the
// dashboard's panels all draw through <Chart type=… data=…/> (Chart.tsx), so a chart library is an
// implementation detail behind the `chartParts` registry.

/** Category charts (line, bar, stackedBar): one x label per point, one value per series and label. */
export interface SeriesData {
  labels: string[];
  series: { name: string; values: number[] }[];
}

/** Pie and map: named values (a map's names are province names as 广东 / 广东省, either form). */
export interface ItemsData {
  items: { name: string; value: number }[];
  /** What the values are (e.g. 客户数): the tooltip's heading and the chart's accessible name. */
  name?: string;
}

/** Gauge: one value against a maximum. */
export interface GaugeData {
  value: number;
  max: number;
  name?: string;
}

export type ChartData = SeriesData | ItemsData | GaugeData;

export interface ChartPartProps {
  data: ChartData;
  /** Height in px (default 280). Width follows the container. */
  height?: number;
  /** Decimals of values in tooltips and labels (default 2). */
  decimals?: number;
  /** `dark` for the wall-screen dashboard. */
  theme?: 'light' | 'dark';
  /** Unit shown after values in tooltips (e.g. 元). */
  unit?: string;
}

/** A registered chart part: a React component drawing `data`. */
export interface ChartPartDef {
  component: React.ComponentType<ChartPartProps>;
}

export function isSeriesData(d: ChartData): d is SeriesData {
  return Array.isArray((d as SeriesData).labels) && Array.isArray((d as SeriesData).series);
}

export function isItemsData(d: ChartData): d is ItemsData {
  return Array.isArray((d as ItemsData).items);
}
