// chart: a chart of what a code answers — rows [{date, value}] (or {list: [...]}) — asked with a
// body filled from the record (detail screens) or from the list's current conditions (a list's
// sections), drawn by the chart part `chartType` names (default line). While `ready` does not hold
// (e.g. no currency chosen yet) it shows `hint` and asks nothing.
import { Card, Empty, Spin } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { OK } from '../../../core/codes';
import { actionCall } from '../actions/actionCall';
import { Chart } from '../charts/Chart';
import { chartDataOf, isEmptyChart } from '../charts/fromRows';
import { readListResult } from '../data/listQuery';
import { holds, useRenderEnv } from '../env';
import { fillBody } from '../template';
import type { ChartSection } from '../types';
import type { SectionDef, SectionProps } from './types';

type Row = Record<string, unknown>;

/** The body sent: the template filled from the data, empty values left out. */
export function chartBody(template: Record<string, unknown> | undefined, data: Record<string, unknown>): Record<string, unknown> {
  const filled = fillBody(template ?? {}, data) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(filled)) if (v !== undefined && v !== null && v !== '') out[k] = v;
  return out;
}

function ChartView({ section, record }: SectionProps) {
  const s = section as ChartSection;
  const type = s.chartType ?? 'line';
  const env = useRenderEnv();
  const ready = holds(s.ready, env, record);
  const body = useMemo(() => (ready ? chartBody(s.body, record) : null), [ready, s.body, record]);
  const key = body ? JSON.stringify(body) : '';
  const [state, setState] = useState<{ key: string; rows: Row[] | null }>({ key: '', rows: null });
  useEffect(() => {
    if (!body) return;
    let live = true;
    setState((st) => ({ ...st, rows: st.key === key ? st.rows : null }));
    void actionCall(s.api, body).then((res) => {
      if (!live) return;
      setState({ key, rows: res.code === OK ? readListResult<Row>(res.data).list : [] });
    });
    return () => {
      live = false;
    };
    // `key` stands for the body's content.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [s.api, key]);
  const measure = useMemo(() => [{ field: s.y ?? 'value', name: s.name ?? '' }], [s.y, s.name]);
  const data = useMemo(() => (state.rows ? chartDataOf(type, state.rows, s.x ?? 'date', measure) : null), [type, state.rows, s.x, measure]);

  let content: React.ReactNode;
  if (!ready) content = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={s.hint ?? '请先选择查询条件'} />;
  else if (!state.rows || state.key !== key) content = <Spin style={{ display: 'block', margin: '48px auto' }} />;
  else if (!data || isEmptyChart(data)) content = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" />;
  else content = <Chart type={type} data={data} height={s.height} decimals={s.decimals} unit={s.unit} />;
  return (
    <Card size="small" title={s.title} className="renderer-chart-section" style={{ marginBottom: 12 }}>
      <div style={{ minHeight: ready ? (s.height ?? 280) : undefined }}>{content}</div>
    </Card>
  );
}

const chart: SectionDef = { component: ChartView };
export default chart;
