// The audit log (every write) and the error log (every unexpected failure, found by its id).
import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AuditEntry, Caller } from '../catalog/context.ts';
import type { DB } from '../db/connection.ts';
import { insertMany } from '../db/raw-sql.ts';

const AUDIT_COLUMNS = ['company_id', 'account_id', 'user_name', 'at', 'ip', 'endpoint', 'action', 'entity', 'record_id', 'record_label', 'changes'];

/** Who wrote: a caller's account, or the server itself (account null, e.g. 自动日结). */
export interface AuditAuthor {
  companyId: number;
  accountId: number | null;
  userName: string;
}

export const callerAuthor = (caller: Caller): AuditAuthor => ({ companyId: caller.company.id, accountId: caller.accountId, userName: caller.userName });

export async function writeAudit(db: DB, caller: Caller | AuditAuthor, ip: string | null, endpoint: string, entries: AuditEntry | AuditEntry[]): Promise<void> {
  const list = Array.isArray(entries) ? entries : [entries];
  if (!list.length) return;
  const who = 'company' in caller ? callerAuthor(caller) : caller;
  const at = new Date().toISOString();
  // Every write passes here: plain SQL (db/raw-sql.ts).
  await insertMany(db, 'audit_log', AUDIT_COLUMNS, list.map((e) => [
    who.companyId, who.accountId, who.userName, at, ip, endpoint, e.action, e.entity,
    e.recordId == null ? null : String(e.recordId), e.recordLabel ?? null, JSON.stringify(e.changes ?? []),
  ]));
}

export interface ErrorLogInfo {
  /** the request id (request-log.ts), so the server log line and the admin error log share it */
  id?: string;
  log?: Pick<FastifyBaseLogger, 'error'>;
  companyId?: number;
  accountId?: number;
  method: string;
  url: string;
  error: unknown;
}

export async function writeErrorLog(db: DB, info: ErrorLogInfo): Promise<string> {
  const id = info.id ?? crypto.randomBytes(6).toString('hex').toUpperCase();
  const err = info.error as Error;
  try {
    await db.insertInto('errorLog').values({
      id, companyId: info.companyId ?? null, accountId: info.accountId ?? null, at: new Date().toISOString(),
      // the path only: a query string may carry a token (the image read's) and has no place in a log an admin reads
      method: info.method, url: info.url.split('?')[0].slice(0, 500), message: String(err?.message ?? err).slice(0, 2000), stack: String(err?.stack ?? '').slice(0, 8000),
    }).execute();
  } catch (logErr) {
    if (info.log) info.log.error({ err: logErr }, 'error log write failed');
    else console.error('error log write failed', logErr);
  }
  if (info.log) info.log.error({ err, errorId: id }, 'unexpected error');
  else console.error(`[error ${id}]`, err);
  return id;
}
