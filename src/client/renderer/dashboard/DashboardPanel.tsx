// One panel of the wall: a KPI tile, a chart (through <Chart type=… theme="dark"/>, so the chart library
// stays behind the chartParts registry) or a top-N list, each reading one field of the dashboard's answer.
import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { Chart } from '../charts/Chart';
import type { ChartData } from '../charts/types';
import { changeOf, fillFigures, showValue } from './format';
import type { ChartPanel, DashboardPanel, KpiPanel, TopPanel } from './types';

type Answer = Record<string, unknown> | null;

/** The panel body's height, followed as the window resizes (chart parts take a height in px). */
function useBodyHeight(): [React.RefObject<HTMLDivElement>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setHeight(Math.floor(el.clientHeight));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, height];
}

function Frame({ panel, children, className, aside }: { panel: DashboardPanel; children: ReactNode; className?: string; aside?: string }) {
  const style: CSSProperties = { gridColumn: `span ${panel.span ?? 3}`, gridRow: `span ${panel.rows ?? 1}` };
  return (
    <section className={`dash-panel ${className ?? ''}`} style={style} data-panel={panel.field}>
      <h2 className="dash-panel-title">
        <span>{panel.title}</span>
        {aside ? <span className="dash-panel-aside">{aside}</span> : null}
      </h2>
      {children}
    </section>
  );
}

const ARROW = { up: '▲', down: '▼', flat: '—', new: '' } as const;

function Kpi({ panel, data, currency }: { panel: KpiPanel; data: Answer; currency: string }) {
  const raw = data?.[panel.field];
  const shown = showValue(raw, panel.format);
  const change = panel.compare ? changeOf(raw, data?.[panel.compare.field]) : null;
  const before = panel.compare ? showValue(data?.[panel.compare.field], panel.format) : null;
  return (
    <Frame panel={panel} className="dash-kpi" aside={panel.aside && data ? fillFigures(panel.aside, data, currency) : undefined}>
      <div className="dash-kpi-value" title={raw === undefined ? '' : String(raw)} data-testid={`kpi-${panel.field}`}>
        {panel.format === 'money' && currency && raw !== undefined ? <span className="dash-kpi-currency">{currency}</span> : null}
        {shown.text}
        {shown.suffix || panel.unit ? <span className="dash-kpi-suffix">{shown.suffix}{panel.unit ?? ''}</span> : null}
      </div>
      {panel.compare && data ? (
        <div className="dash-kpi-compare">
          <span>{panel.compare.label} {before!.text}{before!.suffix}</span>
          {change!.direction === 'new' ? <span className="dash-up">新增</span> : (
            <span className={`dash-${change!.direction}`}>{ARROW[change!.direction]} {change!.text}</span>
          )}
        </div>
      ) : (
        // the same place as a comparison, so every tile's value stands at the same height
        <div className="dash-kpi-compare">{panel.note && data ? fillFigures(panel.note, data, currency) : '\u00a0'}</div>
      )}
    </Frame>
  );
}

function ChartView({ panel, data }: { panel: ChartPanel; data: Answer }) {
  const [ref, height] = useBodyHeight();
  const value = data?.[panel.field] as ChartData | undefined;
  return (
    <Frame panel={panel} className="dash-chart">
      <div className="dash-panel-body" ref={ref}>
        {value && height > 0 ? <Chart type={panel.chart} data={value} theme="dark" height={height} unit={panel.unit} decimals={panel.decimals ?? 0} /> : null}
      </div>
    </Frame>
  );
}

function Top({ panel, data, currency }: { panel: TopPanel; data: Answer; currency: string }) {
  const rows = ((data?.[panel.field] as Record<string, unknown>[] | undefined) ?? []).slice(0, panel.limit ?? 10);
  return (
    <Frame panel={panel} className="dash-top">
      <div className="dash-panel-body">
        {data && rows.length === 0 ? <div className="dash-empty">{panel.empty ?? '暂无数据'}</div> : (
          <table className="dash-table">
            {/* figures take the width they need, names the rest, on two lines before anything is cut */}
            <colgroup>
              <col style={{ width: 44 }} />
              {panel.columns.map((c) => <col key={c.field} />)}
            </colgroup>
            <thead>
              <tr>
                <th className="dash-rank">#</th>
                {panel.columns.map((c) => <th key={c.field} style={{ textAlign: c.align ?? (c.format && c.format !== 'text' ? 'right' : 'left') }}>{c.title}</th>)}
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr key={String(r.id ?? i)}>
                  <td className="dash-rank"><span className={i < 3 ? 'dash-medal' : ''}>{i + 1}</span></td>
                  {panel.columns.map((c) => {
                    const s = showValue(r[c.field], c.format);
                    const right = c.align === 'right' || (!c.align && c.format && c.format !== 'text');
                    return (
                      <td key={c.field} className={right ? 'dash-figure' : 'dash-name'} style={{ textAlign: right ? 'right' : 'left' }} title={String(r[c.field] ?? '')}>
                        {right ? <>{c.format === 'money' && currency ? `${currency}` : ''}{s.text}{s.suffix}</> : <div className="dash-name-text">{s.text}{s.suffix}</div>}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </Frame>
  );
}

export function DashboardPanelView({ panel, data, currency }: { panel: DashboardPanel; data: Answer; currency: string }) {
  if (panel.type === 'kpi') return <Kpi panel={panel} data={data} currency={currency} />;
  if (panel.type === 'chart') return <ChartView panel={panel} data={data} />;
  return <Top panel={panel} data={data} currency={currency} />;
}
