// The `dashboard` screen kind (数据大屏): a full-screen, dark wall of panels declared in the schema — KPI
// tiles (a value against yesterday / last month), chart panels (a registered chart part fed by one field
// of the answer) and top-N lists — all from one code called every `refresh` seconds by the refresh loop
// (no request while the last is unanswered, none while the tab is hidden). A failed refresh keeps the
// last figures and shows 数据更新失败 hh:mm in the header. Sized for 1920×1080 read from 3 m.
import { useEffect, useMemo, useState } from 'react';
import { formatTime } from '../../../core/format';
import { OK } from '../../../core/codes';
import { callApiRef } from '../../request';
import type { ScreenProps } from '../../router/screenProps';
import { getTimeZone } from '../../session';
import { DashboardPanelView } from '../dashboard/DashboardPanel';
import { startRefreshLoop } from '../dashboard/refreshLoop';
import type { DashboardScreenPart } from '../dashboard/types';
import '../dashboard/dashboard.css';

type Answer = Record<string, unknown>;

interface Status {
  data: Answer | null;
  /** when the last good answer came (ISO) */
  updatedAt: string | null;
  /** when the last refresh failed, if it did after the last good one */
  failedAt: string | null;
}

function useClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const t = window.setInterval(() => setNow(new Date()), 1000);
    return () => window.clearInterval(t);
  }, []);
  return now;
}

function Clock({ tz }: { tz: number }) {
  const now = useClock();
  return (
    <div className="dash-clock">
      <div className="dash-clock-time">{formatTime(now.toISOString(), tz, 'HH:mm:ss')}</div>
      <div className="dash-clock-date">{formatTime(now.toISOString(), tz, 'YYYY-MM-DD')}</div>
    </div>
  );
}

export default function DashboardScreen({ file }: ScreenProps) {
  const schema = file as unknown as DashboardScreenPart;
  const tz = getTimeZone();
  const [status, setStatus] = useState<Status>({ data: null, updatedAt: null, failedAt: null });
  const every = Math.max(5, schema.refresh ?? 30) * 1000;
  const ref = schema.api.get;

  useEffect(() => {
    document.body.classList.add('dash-body');
    return () => document.body.classList.remove('dash-body');
  }, []);

  useEffect(
    () =>
      startRefreshLoop({
        every,
        load: async () => {
          // quiet: a failure is the header's mark, not a toast or a modal over an unattended wall
          const env = await callApiRef<Answer>(ref, {}, { quiet: true });
          const at = new Date().toISOString();
          if (env.code === OK && env.data) setStatus({ data: env.data, updatedAt: at, failedAt: null });
          else setStatus((s) => ({ ...s, failedAt: at }));
        },
      }),
    [every, ref],
  );

  const columns = schema.grid?.columns ?? 12;
  const rows = schema.grid?.rows ?? [1, 2, 2];
  const gridStyle = useMemo(
    () => ({ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gridTemplateRows: rows.map((r) => `minmax(0, ${r}fr)`).join(' ') }),
    [columns, rows],
  );
  const data = status.data;

  return (
    <div className="dash-root" data-testid="dashboard">
      <header className="dash-header">
        <div className="dash-company">{String(data?.companyName ?? '')}</div>
        <h1 className="dash-title">{file.title}</h1>
        <div className="dash-header-right">
          <div className="dash-status" data-testid="dash-status">
            {status.failedAt ? (
              <span className="dash-failed">数据更新失败 {formatTime(status.failedAt, tz, 'HH:mm')}</span>
            ) : status.updatedAt ? (
              <span>更新于 {formatTime(status.updatedAt, tz, 'HH:mm:ss')}</span>
            ) : (
              <span>加载中…</span>
            )}
          </div>
          <Clock tz={tz} />
        </div>
      </header>
      <main className="dash-grid" style={gridStyle}>
        {schema.panels.map((panel, i) => (
          <DashboardPanelView key={`${panel.field}-${i}`} panel={panel} data={data} currency={String(data?.currencyCharacter ?? '')} />
        ))}
      </main>
    </div>
  );
}
