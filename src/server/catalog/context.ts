// What every handler receives: the caller, its company scope, the database, and helpers.
import type { EndpointEntry, Family } from '../../core/catalog.ts';
import type { AuditAction } from '../../core/audit-actions.ts';
import type { CompanyFlag } from '../../core/flags.ts';
import type { ServerConfig } from '../config.ts';
import type { DB, Database } from '../db/connection.ts';
import type { Tenant } from './tenant.ts';
import type { DocumentType } from '../documents/engine.ts';
import type { MultipartFile } from '@fastify/multipart';

export interface CompanyInfo {
  id: number;
  code: string;
  name: string;
  timeZone: number;
  flags: Record<CompanyFlag, boolean>;
  /** the company runs this installation (auth/operator.ts) */
  operator: boolean;
}

export interface Caller {
  sessionId: string;
  accountId: number;
  userName: string;
  company: CompanyInfo;
  allRights: boolean;
  rights: ReadonlySet<string>;
  /**
   * Rights withheld whatever the roles say: the instance endpoints' rights, for a company that does not
   * run the installation (auth/operator.ts). Empty for an operator company.
   */
  withheld: ReadonlySet<string>;
  /** the session was started from a wall link (大屏链接): it reaches the wall's own calls only (auth/wall.ts) */
  wall: boolean;
}

export interface CallContext {
  family: Family;
  entry: EndpointEntry;
  database: Database;
  db: DB;
  config: ServerConfig;
  ip: string;
  userAgent: string;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, string>;
  /** The access token the call came with (for handlers such as logout). */
  token: string | null;
  /** null only for public calls. */
  caller: Caller | null;
  /** The caller's company scope; throws for public calls. */
  tenant: Tenant;
  /** The document types the engine serves (documents/), by type name. */
  documents: ReadonlyMap<string, DocumentType>;
  /** For multipart calls: the uploaded file, read lazily by the handler. */
  file?: () => Promise<MultipartFile | undefined>;
  /** Runs fn in one transaction (retried on PostgreSQL serialization failures and deadlocks). */
  transaction<T>(fn: (db: DB, tenant: Tenant) => Promise<T>): Promise<T>;
  /** Records a write in the audit log (inside the caller's transaction when db is given). */
  /** Several entries of one call (e.g. a document saved and posted) go in as one statement. */
  audit(entry: AuditEntry | AuditEntry[], db?: DB): Promise<void>;
}

export interface AuditChange {
  field: string;
  title?: string;
  from: unknown;
  to: unknown;
}

export interface AuditEntry {
  /** One of the labelled actions (src/core/audit-actions.ts): screens show its label. */
  action: AuditAction;
  entity: string;
  recordId?: string | number | null;
  recordLabel?: string | null;
  changes?: AuditChange[];
}

/** A JSON Schema (draft 2020-12) for a handler's input; properties carry Chinese `title`s. */
export type InputSchema = Record<string, unknown>;

export interface OpHandler<I = any> {
  /** Validated (and defaults applied) before run; field titles name fields in error messages. */
  input?: InputSchema;
  run(ctx: CallContext, input: I): Promise<unknown>;
}
