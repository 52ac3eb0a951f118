// The `dashboard` screen kind's schema (schemas/meta/screen-kinds.schema.json#/$defs/dashboard): one code
// answering every panel, a refresh interval, and a grid of panels each bound to a field of the answer.

export type DashboardFormat = 'money' | 'count' | 'percent' | 'text';

export interface KpiPanel {
  type: 'kpi';
  title: string;
  /** answer field holding the value (money as exact decimal text, counts as integers) */
  field: string;
  format?: DashboardFormat;
  /** the value it is compared with (yesterday, last month to date) */
  compare?: { field: string; label: string };
  /** a line under the value instead of a comparison; "{field}" or "{field|money}" ("|count", "|percent")
   *  placeholders from the answer */
  note?: string;
  /** a short figure at the right of the title (e.g. 本月 {ordersMonth|count} 单), placeholders as in note */
  aside?: string;
  unit?: string;
  span?: number;
  rows?: number;
}

export interface ChartPanel {
  type: 'chart';
  title: string;
  /** a registered chart part: line, bar, stackedBar, pie, gauge, chinaMap */
  chart: string;
  /** answer field holding the part's data (charts/types.ts) */
  field: string;
  unit?: string;
  decimals?: number;
  span?: number;
  rows?: number;
}

export interface TopColumn {
  field: string;
  title: string;
  format?: DashboardFormat;
  align?: 'left' | 'right';
  /** px; columns without one share what is left (give the figures one, the name takes the rest) */
  width?: number;
}

export interface TopPanel {
  type: 'top';
  title: string;
  /** answer field holding the ranked rows */
  field: string;
  columns: TopColumn[];
  /** rows shown (default 10) */
  limit?: number;
  empty?: string;
  span?: number;
  rows?: number;
}

export type DashboardPanel = KpiPanel | ChartPanel | TopPanel;

export interface DashboardScreenPart {
  title: string;
  api: { get: string };
  /** seconds between the end of one refresh and the start of the next (default 30) */
  refresh?: number;
  grid?: { columns?: number; rows?: number[] };
  panels: DashboardPanel[];
}
