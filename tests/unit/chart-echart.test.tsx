// @vitest-environment jsdom
// <Chart type=…> over ECharts, with ECharts replaced by a recording fake: the named part is loaded and
// draws its option whole into an SVG-rendered instance; the instance follows its container's size
// (ResizeObserver), is made again for the dark theme, and is disposed when the screen goes; an unknown
// name is an error box.
import { act, useState } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount, polyfillDom, resetAll, text, unmount, until } from './renderer-harness';

interface FakeChart {
  el: HTMLElement;
  theme: string | undefined;
  opts: unknown;
  options: { option: Record<string, any>; how: unknown }[];
  resized: number;
  disposed: boolean;
}
const charts: FakeChart[] = [];

vi.mock('echarts/core', () => ({
  use: () => undefined,
  registerMap: () => undefined,
  init: (el: HTMLElement, theme: string | undefined, opts: unknown) => {
    const c: FakeChart = { el, theme, opts, options: [], resized: 0, disposed: false };
    charts.push(c);
    return {
      setOption: (option: Record<string, any>, how: unknown) => c.options.push({ option, how }),
      resize: () => (c.resized += 1),
      dispose: () => (c.disposed = true),
    };
  },
}));
vi.mock('echarts/charts', () => ({ LineChart: {}, BarChart: {}, PieChart: {}, GaugeChart: {}, MapChart: {} }));
vi.mock('echarts/components', () => ({ GridComponent: {}, TooltipComponent: {}, LegendComponent: {}, VisualMapContinuousComponent: {} }));
vi.mock('echarts/renderers', () => ({ SVGRenderer: {} }));

/** A ResizeObserver jsdom lacks: the test says when a container changed size. */
const observers: { cb: () => void; targets: Element[]; live: boolean }[] = [];
class FakeResizeObserver {
  private readonly o: { cb: () => void; targets: Element[]; live: boolean };
  constructor(cb: () => void) {
    this.o = { cb, targets: [], live: true };
    observers.push(this.o);
  }
  observe(el: Element) {
    this.o.targets.push(el);
  }
  disconnect() {
    this.o.live = false;
  }
}

const { Chart } = await import('../../src/client/renderer/charts/Chart');

beforeAll(() => {
  polyfillDom();
  (globalThis as { ResizeObserver?: unknown }).ResizeObserver = FakeResizeObserver;
});
beforeEach(() => {
  resetAll();
  charts.length = 0;
  observers.length = 0;
});
afterEach(unmount);

const data = { labels: ['1月', '2月'], series: [{ name: '销售金额', values: [10, 20] }] };
let setDark: (dark: boolean) => void = () => undefined;

function Holder() {
  const [dark, set] = useState(false);
  setDark = set;
  return <Chart type="stackedBar" data={data} height={240} decimals={0} unit="元" theme={dark ? 'dark' : 'light'} />;
}

describe('<Chart> over ECharts', () => {
  it('draws the named part with the SVG renderer, the whole option each time, labelled by its series', async () => {
    await mount(<Holder />);
    await until(() => charts.length === 1 && charts[0]!.options.length > 0, 'chart drawn');
    const c = charts[0]!;
    expect(c.opts).toEqual({ renderer: 'svg' });
    expect(c.theme).toBeUndefined();
    const { option, how } = c.options.at(-1)!;
    expect(how).toEqual({ notMerge: true });
    expect(option.series.map((s: any) => [s.type, s.stack, s.data])).toEqual([['bar', 'total', [10, 20]]]);
    expect(option.tooltip.valueFormatter(1234)).toBe('1,234 元');
    expect(c.el.getAttribute('aria-label')).toBe('销售金额');
    expect(c.el.style.height).toBe('240px');
  });

  it('follows its container’s size, is made anew for the dark theme, and is disposed with the screen', async () => {
    await mount(<Holder />);
    await until(() => charts.length === 1 && charts[0]!.options.length > 0, 'chart drawn');
    const light = charts[0]!;
    const watching = observers.find((o) => o.targets.includes(light.el))!;
    expect(watching).toBeTruthy();
    const before = light.resized;
    watching.cb();
    expect(light.resized).toBe(before + 1);

    await act(async () => setDark(true));
    await until(() => charts.length === 2 && charts[1]!.options.length > 0, 'dark chart');
    expect(light.disposed).toBe(true);
    expect(watching.live).toBe(false);
    expect(charts[1]!.theme).toBe('dark');
    expect(charts[1]!.el.className).toContain('renderer-chart-dark');
    // no box of the theme's own background on the wall's panels
    expect(charts[1]!.options.at(-1)!.option.backgroundColor).toBe('transparent');

    await unmount();
    expect(charts[1]!.disposed).toBe(true);
    expect(observers.every((o) => !o.live)).toBe(true);
  });

  it('an unregistered name is an error box naming it', async () => {
    await mount(<Chart type="radar" data={data} />);
    await until(() => text().includes('未注册的图表类型：radar'), 'error box');
    expect(charts).toHaveLength(0);
  });
});
