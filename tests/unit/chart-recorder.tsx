// Chart parts replaced by a stand-in that writes down what it was asked to draw (part name, data,
// options) — for screen tests in jsdom, where ECharts has no size to draw at. What ECharts makes of
// the data is tested in chart-parts.test.ts and, drawn, in the end-to-end tests.
import { chartParts } from '../../src/client/renderer/registries';
import type { ChartPartProps } from '../../src/client/renderer/charts/types';

export interface DrawnChart {
  type: string;
  data: unknown;
  decimals?: number;
  height?: number;
}

export function recordCharts(): void {
  for (const type of chartParts.types()) {
    chartParts.define(type, {
      component: (p: ChartPartProps) => (
        <div className="test-chart" data-drawn={JSON.stringify({ type, data: p.data, decimals: p.decimals, height: p.height })} />
      ),
    });
  }
}

/** The charts on the page now (NaN values read back as null). */
export function chartsDrawn(): DrawnChart[] {
  return [...document.querySelectorAll('.test-chart')].map((el) => JSON.parse(el.getAttribute('data-drawn')!) as DrawnChart);
}
