// 服务监控 and 接口分析: what each server process measures about itself.
//
// Every process keeps a row in service_process (a heartbeat every HEARTBEAT_SECONDS, and one at start and
// stop): uptime, memory, event-loop delay, requests per second and errors since the last beat, the
// database pool, the database size and the background jobs. Processes sharing one PostgreSQL see each
// other's rows; a row whose beat is older than three intervals is shown as not answering.
//
// API calls are counted in memory per minute (company-local) × company × account × endpoint × answer code,
// with a latency histogram (LATENCY_BUCKETS_MS), and added to api_usage_minute at each beat (one upsert
// per key that changed: counts add up across processes). Rows older than API_USAGE_RETENTION_DAYS go hourly.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { ServerConfig } from '../../config.ts';
import type { DB, Database } from '../../db/connection.ts';
import { LATENCY_BUCKETS_MS } from '../../db/migrations/027-system-tools.ts';

export { LATENCY_BUCKETS_MS };

interface UsageCell {
  minute: string;
  companyId: number;
  accountId: number;
  endpoint: string;
  code: string;
  calls: number;
  totalMs: number;
  maxMs: number;
  buckets: number[];
}

export interface ProcessStats {
  host: string;
  pid: number;
  node: string;
  uptimeSec: number;
  rssMb: number;
  heapUsedMb: number;
  eventLoopP99Ms: number;
  eventLoopMaxMs: number;
  requests: number;
  requestsPerSec: number;
  errors: number;
  errorRate: number;
  inFlight: number;
  pool: string;
  dbSizeMb: number | null;
  jobs: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** 'YYYY-MM-DD HH:MM' of `ms` shifted by the company's UTC offset (hours). */
export function minuteKey(ms: number, tzHours: number): string {
  const d = new Date(ms + tzHours * 3600_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

export class Monitor {
  readonly id = crypto.randomBytes(8).toString('hex');
  private readonly startedAt = new Date();
  private cells = new Map<string, UsageCell>();
  private requests = 0;
  private errors = 0;
  private lastBeat = Date.now();
  inFlight = 0;
  private readonly loop: IntervalHistogram;
  private timer: NodeJS.Timeout | null = null;
  private beating: Promise<void> = Promise.resolve();
  private lastSweep = 0;

  constructor(readonly database: Database, private readonly config: ServerConfig) {
    this.loop = monitorEventLoopDelay({ resolution: 20 });
    this.loop.enable();
  }

  private keyMinute = -1;
  private keys = new Map<number, string>();

  /** The company-local minute key, formatted once per minute and time zone. */
  private minuteOf(tzHours: number): string {
    const now = Date.now();
    const epochMinute = Math.floor(now / 60_000);
    if (epochMinute !== this.keyMinute) {
      this.keyMinute = epochMinute;
      this.keys.clear();
    }
    let key = this.keys.get(tzHours);
    if (key === undefined) this.keys.set(tzHours, (key = minuteKey(now, tzHours)));
    return key;
  }

  /** One API call answered (called from the response hook: keep it cheap). */
  record(endpoint: string, companyId: number, tzHours: number, accountId: number, code: string, ms: number): void {
    this.requests++;
    if (code === '500') this.errors++;
    const minute = this.minuteOf(tzHours);
    const key = `${minute}|${companyId}|${accountId}|${endpoint}|${code}`;
    let cell = this.cells.get(key);
    if (!cell) {
      cell = { minute, companyId, accountId, endpoint, code, calls: 0, totalMs: 0, maxMs: 0, buckets: LATENCY_BUCKETS_MS.map(() => 0) };
      this.cells.set(key, cell);
    }
    cell.calls++;
    const whole = Math.round(ms);
    cell.totalMs += whole;
    if (whole > cell.maxMs) cell.maxMs = whole;
    let b = 0;
    while (ms > LATENCY_BUCKETS_MS[b]) b++;
    cell.buckets[b]++;
  }

  /** Adds what was counted since the last flush to api_usage_minute. */
  async flushUsage(): Promise<void> {
    if (!this.cells.size) return;
    const cells = [...this.cells.values()];
    this.cells = new Map();
    const db = this.database.db;
    for (let i = 0; i < cells.length; i += 200) {
      const rows = cells.slice(i, i + 200).map((c) => ({
        minute: c.minute, companyId: c.companyId, accountId: c.accountId, endpoint: c.endpoint, code: c.code,
        calls: c.calls, totalMs: c.totalMs, maxMs: c.maxMs, ...Object.fromEntries(c.buckets.map((n, k) => [`b${k}`, n])),
      }));
      const add = (col: string) => sql.raw(`api_usage_minute.${col} + excluded.${col}`);
      await db.insertInto('apiUsageMinute').values(rows)
        .onConflict((oc) => oc.columns(['minute', 'companyId', 'accountId', 'endpoint', 'code']).doUpdateSet({
          calls: add('calls'), totalMs: add('total_ms'),
          maxMs: sql.raw('case when excluded.max_ms > api_usage_minute.max_ms then excluded.max_ms else api_usage_minute.max_ms end'),
          ...Object.fromEntries(LATENCY_BUCKETS_MS.map((_, k) => [`b${k}`, add(`b${k}`)])),
        }))
        .execute();
    }
  }

  async stats(): Promise<ProcessStats> {
    const now = Date.now();
    const secs = Math.max(0.001, (now - this.lastBeat) / 1000);
    const mem = process.memoryUsage();
    const pool = this.database.poolStats?.();
    const jobs = (await this.database.db.selectFrom('exportJob').select(['status', (eb) => eb.fn.countAll().as('n')])
      .where('status', 'in', ['queued', 'running']).groupBy('status').execute()) as { status: string; n: unknown }[];
    const jobCount = (s: string) => Number(jobs.find((j) => j.status === s)?.n ?? 0);
    const stats: ProcessStats = {
      host: os.hostname(), pid: process.pid, node: process.version,
      uptimeSec: Math.round((now - this.startedAt.getTime()) / 1000),
      rssMb: Math.round(mem.rss / 1048576 * 10) / 10,
      heapUsedMb: Math.round(mem.heapUsed / 1048576 * 10) / 10,
      eventLoopP99Ms: Math.round(this.loop.percentile(99) / 1e5) / 10,
      eventLoopMaxMs: Math.round(this.loop.max / 1e5) / 10,
      requests: this.requests,
      requestsPerSec: Math.round(this.requests / secs * 10) / 10,
      errors: this.errors,
      errorRate: this.requests ? Math.round(this.errors / this.requests * 10000) / 100 : 0,
      inFlight: this.inFlight,
      pool: pool ? `使用中 ${pool.total - pool.idle} / 共 ${pool.total}，等待 ${pool.waiting}` : 'SQLite（单连接）',
      dbSizeMb: await this.dbSizeMb(),
      jobs: `导出 排队 ${jobCount('queued')}、进行中 ${jobCount('running')}`,
    };
    return stats;
  }

  private async dbSizeMb(): Promise<number | null> {
    try {
      if (this.database.dialect === 'postgres') {
        const r = await sql<{ size: string }>`select pg_database_size(current_database()) as size`.execute(this.database.db);
        return Math.round(Number(r.rows[0]?.size ?? 0) / 1048576 * 10) / 10;
      }
      let bytes = 0;
      for (const f of ['app.sqlite', 'app.sqlite-wal']) {
        const p = path.join(this.config.dataDir, f);
        if (fs.existsSync(p)) bytes += fs.statSync(p).size;
      }
      return Math.round(bytes / 1048576 * 10) / 10;
    } catch {
      return null;
    }
  }

  /** Writes this process's heartbeat row (and the usage counted so far); one beat at a time. */
  beat(stopping = false): Promise<void> {
    this.beating = this.beating.then(() => this.beatNow(stopping)).catch((e) => console.error('[monitor]', e));
    return this.beating;
  }

  private async beatNow(stopping: boolean): Promise<void> {
    await this.flushUsage();
    const stats = await this.stats();
    const now = new Date().toISOString();
    const row = { host: stats.host, pid: stats.pid, lastSeen: now, stoppedAt: stopping ? now : null, stats: JSON.stringify(stats) };
    await this.database.db.insertInto('serviceProcess').values({ id: this.id, startedAt: this.startedAt.toISOString(), ...row })
      .onConflict((oc) => oc.column('id').doUpdateSet(row)).execute();
    this.requests = 0;
    this.errors = 0;
    this.lastBeat = Date.now();
    this.loop.reset();
    if (Date.now() - this.lastSweep > 3600_000) {
      this.lastSweep = Date.now();
      await sweepUsage(this.database.db, this.config.apiUsageRetentionDays);
      // processes gone for more than a day are forgotten
      await this.database.db.deleteFrom('serviceProcess').where('lastSeen', '<', new Date(Date.now() - 86400_000).toISOString()).execute();
    }
  }

  /** The first beat (awaited: a server that is up has its row), then one every HEARTBEAT_SECONDS. */
  async start(): Promise<void> {
    this.timer = setInterval(() => void this.beat(), this.config.heartbeatSec * 1000);
    this.timer.unref();
    await this.beat();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.beat(true);
    this.loop.disable();
  }
}

/** Removes usage rows older than `days` (by their minute, compared as text: 'YYYY-MM-DD HH:MM'). */
export async function sweepUsage(db: DB, days: number, now = Date.now()): Promise<number> {
  if (!days) return 0;
  const cutoff = minuteKey(now - days * 86400_000, 0).slice(0, 10);
  const r = await db.deleteFrom('apiUsageMinute').where('minute', '<', cutoff).executeTakeFirst();
  return Number(r.numDeletedRows ?? 0);
}

const monitors = new WeakMap<Database, Monitor>();

export function registerMonitor(m: Monitor): Monitor {
  monitors.set(m.database, m);
  return m;
}

/** The monitor of the process serving this database (undefined for a database opened by a script). */
export const monitorOf = (database: Database): Monitor | undefined => monitors.get(database);
