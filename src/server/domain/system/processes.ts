// 服务监控 (cdm 019501): the server processes sharing this database, from their heartbeat rows. The
// calling process beats first, so its own row is fresh; another process is 运行中 while its last beat is
// younger than three heartbeat intervals, 无响应 after that, 已停止 once it stopped cleanly.
import type { CallContext } from '../../catalog/context.ts';
import { monitorOf, type ProcessStats } from './monitor.ts';
import { typed } from '../../db/typed.ts';

/** 2 天 3 小时 / 3 小时 5 分 / 5 分 12 秒 / 12 秒 */
export function duration(sec: number): string {
  const d = Math.floor(sec / 86400), h = Math.floor((sec % 86400) / 3600), m = Math.floor((sec % 3600) / 60), s = sec % 60;
  if (d) return `${d} 天 ${h} 小时`;
  if (h) return `${h} 小时 ${m} 分`;
  if (m) return `${m} 分 ${s} 秒`;
  return `${s} 秒`;
}

export async function listProcesses(ctx: CallContext) {
  const own = monitorOf(ctx.database);
  await own?.beat();
  const rows = await typed(ctx.db).selectFrom('serviceProcess').selectAll().orderBy('startedAt', 'asc').execute();
  const now = Date.now();
  const stale = ctx.config.heartbeatSec * 3000;
  const list = rows.map((r) => {
    const stats = JSON.parse(String(r.stats)) as ProcessStats;
    const last = Date.parse(String(r.lastSeen));
    const status = r.stoppedAt ? 'stopped' : now - last > stale ? 'silent' : 'running';
    const until = status === 'running' ? now : last;
    const uptimeSec = Math.max(0, Math.round((until - Date.parse(String(r.startedAt))) / 1000));
    return {
      id: String(r.id), self: r.id === own?.id, status, startedAt: String(r.startedAt), lastSeen: String(r.lastSeen),
      secondsSinceSeen: Math.max(0, Math.round((now - last) / 1000)), ...stats, pid: String(stats.pid), uptimeSec, uptime: duration(uptimeSec),
    };
  });
  const running = list.filter((p) => p.status === 'running');
  return {
    list, total: list.length, page: 1, pageSize: Math.max(list.length, 1),
    totals: { requestsPerSec: Math.round(running.reduce((s, p) => s + p.requestsPerSec, 0) * 10) / 10, running: running.length },
  };
}
