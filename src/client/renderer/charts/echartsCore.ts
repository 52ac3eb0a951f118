// ECharts with only the parts the built-in charts draw (tree-shaken: echarts/core, four chart types,
// grid, tooltip and legend, and the SVG renderer — crisp in screenshots and print). The map adds its
// own pieces in chinaMap.tsx, so pages without a map never load them. Imported only from the chart
// parts' chunks: /login and the shell never fetch it.
import { BarChart, GaugeChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use as installParts } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

installParts([SVGRenderer, GridComponent, TooltipComponent, LegendComponent, LineChart, BarChart, PieChart, GaugeChart]);

export { init };
export type { EChartsType } from 'echarts/core';

/** Animations are off in end-to-end runs (the e2e build's mode, or a browser driven by a test). */
export function chartAnimation(): boolean {
  if (import.meta.env.MODE === 'e2e') return false;
  return !(typeof navigator !== 'undefined' && navigator.webdriver);
}
