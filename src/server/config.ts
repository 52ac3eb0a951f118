// Server configuration, read once from the environment (documented in README).
import path from 'node:path';

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
  /** List pages of generic resources kept and served again while their tables are unwritten (resources/page-cache.ts). */
  listPageCache: boolean;
  /** Hours an Idempotency-Key and its answer are kept (http/idempotency.ts; 0: kept for ever). */
  idempotencyKeyHours: number;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`环境变量 ${name} 必须是非负数字，当前为 “${raw}”`);
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
    port: int(env, 'PORT', 8080),
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
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
    clientDir: path.resolve(env.CLIENT_DIR || 'dist/client'),
    exportRetentionDays: int(env, 'EXPORT_RETENTION_DAYS', 7),
    listPageCache: !['false', '0', 'off'].includes(String(env.LIST_PAGE_CACHE ?? '').toLowerCase()),
    idempotencyKeyHours: int(env, 'IDEMPOTENCY_KEY_HOURS', 24),
  };
}
