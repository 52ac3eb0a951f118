// Server configuration, read once from the environment (documented in README).
import path from 'node:path';
import { defaultClientDir } from './paths.ts';

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  accessTokenTtlSec: number;
  refreshTokenTtlSec: number;
  trustProxy: boolean | string;
  uploadMaxBytes: number;
  loginMaxFailuresPerAccount: number;
  loginMaxFailuresPerIp: number;
  loginMaxFailuresAccountWide: number;
  loginWindowSec: number;
  loginDelayMaxSec: number;
  /** Absolute lifetime of a session from its login: refreshing never takes it further. */
  sessionMaxAgeSec: number;
  smtp: { host?: string; port: number; secure: boolean; user?: string; pass?: string; from: string };
  clientDir: string;
  /** Days a finished export job and its file are kept (0: kept until the user deletes them). */
  exportRetentionDays: number;
  /** Days the per-minute API usage aggregate (接口分析) is kept (0: kept for ever). */
  apiUsageRetentionDays: number;
  /** Count API calls into the per-minute aggregate (API_USAGE=off: not counted; benchmarks compare). */
  apiUsage: boolean;
  /** Seconds between a process's heartbeats (服务监控) and its usage flushes. */
  heartbeatSec: number;
  /** List pages of generic resources kept and served again while their tables are unwritten (resources/page-cache.ts). */
  listPageCache: boolean;
  /** minutes between the server's passes closing past days by itself (自动日结); 0 = off */
  autoCloseMinutes: number;
  /** Hours an Idempotency-Key and its answer are kept (http/idempotency.ts; 0: kept for ever). */
  idempotencyKeyHours: number;
  /** pino level of the server log; undefined: none (tests, in-process servers). The production entry defaults to info. */
  logLevel?: LogLevel;
  /** json (one line a record, for collectors) or pretty (development; needs the pino-pretty dev dependency). */
  logFormat: 'json' | 'pretty';
  /** Seconds a stopping process waits for requests in flight before it closes the database regardless. */
  shutdownTimeoutSec: number;
  /** ms a stopping process keeps its port open answering 503 (readiness first) before it closes the listener */
  shutdownDrainMs: number;
  /** Processes behind the one port (node:cluster); 1: this process serves alone. */
  workers: number;
  /**
   * OPERATOR_COMPANIES: codes of the companies that run this installation (comma-separated). Only their
   * accounts reach the tools that read or change the installation as a whole (endpoints marked
   * `instance` in the catalog: server processes, database structure, files of every company). Unset: the
   * company created first (the lowest id).
   */
  operatorCompanies: string[] | null;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[]): T | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!allowed.includes(raw as T)) throw new Error(`环境变量 ${name} 只能是 ${allowed.join('、')} 之一，当前为 “${raw}”`);
  return raw as T;
}

function databaseUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('环境变量 DATABASE_URL 不是有效的地址（应为 postgres://用户@主机:端口/数据库）');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new Error(`环境变量 DATABASE_URL 必须以 postgres:// 开头，当前为 “${url.protocol}//…”`);
  }
  return raw;
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const n = int(env, name, fallback);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`环境变量 ${name} 必须是 1 到 ${max} 之间的整数，当前为 “${env[name]}”`);
  return n;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`环境变量 ${name} 必须是非负数字，当前为 “${raw}”`);
  return n;
}

function port(env: NodeJS.ProcessEnv): number {
  const n = int(env, 'PORT', 8080);
  if (!Number.isInteger(n) || n > 65535) throw new Error(`环境变量 PORT 必须是 0 到 65535 之间的整数，当前为 “${env.PORT}”`);
  return n;
}

function trustProxy(raw: string | undefined): boolean | string {
  if (!raw || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  return raw; // a list of addresses/CIDRs of trusted proxies
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const dataDir = path.resolve(env.DATA_DIR || 'data');
  return {
    port: port(env),
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl: databaseUrl(env.DATABASE_URL),
    accessTokenTtlSec: int(env, 'ACCESS_TOKEN_TTL', 30 * 60),
    refreshTokenTtlSec: int(env, 'REFRESH_TOKEN_TTL', 7 * 24 * 3600),
    trustProxy: trustProxy(env.TRUST_PROXY),
    uploadMaxBytes: int(env, 'UPLOAD_MAX_BYTES', 10 * 1024 * 1024),
    loginMaxFailuresPerAccount: int(env, 'LOGIN_MAX_FAILURES', 5),
    loginMaxFailuresPerIp: int(env, 'LOGIN_MAX_FAILURES_PER_IP', 30),
    loginMaxFailuresAccountWide: int(env, 'LOGIN_MAX_FAILURES_PER_ACCOUNT', 20),
    loginWindowSec: int(env, 'LOGIN_WINDOW', 24 * 3600),
    loginDelayMaxSec: int(env, 'LOGIN_DELAY_MAX', 15 * 60),
    sessionMaxAgeSec: int(env, 'SESSION_MAX_AGE', 12 * 3600),
    smtp: {
      host: env.SMTP_HOST || undefined,
      port: int(env, 'SMTP_PORT', 25),
      secure: env.SMTP_SECURE === 'true',
      user: env.SMTP_USER || undefined,
      pass: env.SMTP_PASS || undefined,
      from: env.SMTP_FROM || 'noreply@localhost',
    },
    clientDir: env.CLIENT_DIR ? path.resolve(env.CLIENT_DIR) : defaultClientDir(),
    exportRetentionDays: int(env, 'EXPORT_RETENTION_DAYS', 7),
    apiUsageRetentionDays: int(env, 'API_USAGE_RETENTION_DAYS', 90),
    heartbeatSec: Math.max(1, int(env, 'HEARTBEAT_SECONDS', 10)),
    apiUsage: !['false', '0', 'off'].includes(String(env.API_USAGE ?? '').toLowerCase()),
    listPageCache: !['false', '0', 'off'].includes(String(env.LIST_PAGE_CACHE ?? '').toLowerCase()),
    idempotencyKeyHours: int(env, 'IDEMPOTENCY_KEY_HOURS', 24),
    autoCloseMinutes: int(env, 'AUTO_CLOSE_MINUTES', 1),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS),
    logFormat: oneOf(env, 'LOG_FORMAT', ['json', 'pretty'] as const) ?? 'json',
    shutdownTimeoutSec: int(env, 'SHUTDOWN_TIMEOUT', 10),
    shutdownDrainMs: int(env, 'SHUTDOWN_DRAIN_MS', 1000),
    workers: positiveInt(env, 'WORKERS', 1, 64),
    operatorCompanies: env.OPERATOR_COMPANIES?.trim() ? env.OPERATOR_COMPANIES.split(',').map((c) => c.trim()).filter(Boolean) : null,
  };
}
