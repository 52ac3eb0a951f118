// Types of the endpoint catalog (schemas/endpoints/*.json). Client transport rules, server handler
// binding, rights checks and the OpenAPI document are all derived from these entries.

export type Family = 'auth' | 'storage' | 'cdm' | 'oms';
export type HttpMethod = 'GET' | 'POST';
/** json: one JSON object as body; none: no body at all; multipart: a file upload. */
export type BodyKind = 'json' | 'none' | 'multipart';
/** json: the {code,msg,data} envelope; file: a download with Content-Disposition. */
export type ResponseKind = 'json' | 'file';
/** Extra values a call carries. `header`: sent as an HTTP header; `query+header`: both. */
export interface ExtraParam {
  name: 'priceTitleId' | 'pptId';
  in: 'header' | 'query+header';
}

export interface EndpointEntry {
  code: string;
  /** Chinese name shown in docs, the API console and the audit log. */
  name: string;
  /** What the call does, for developers (Chinese or English). */
  description?: string;
  method: HttpMethod;
  body: BodyKind;
  response: ResponseKind;
  extra?: ExtraParam[];
  /** true: the client shows the full-screen processing overlay while it runs. */
  overlay?: boolean;
  /** false: identical in-flight requests are NOT dropped (spec §7: 010213). Default true. */
  dedupe?: boolean;
  /** true: the call creates or posts a document; the client sends an Idempotency-Key (one per
   *  submission, kept across its retries) and the server answers a repeat of that key with the first
   *  answer, writing nothing (server/http/idempotency.ts). */
  idempotent?: boolean;
  /**
   * true: the call reads or changes the installation as a whole (server processes, database structure,
   * files of every company): only the operator companies' accounts may make it (server/auth/operator.ts).
   */
  instance?: true;
  /** "public": no token at all; "1": any logged-in user; otherwise a function-right code. */
  permission: string;
  /** `resource:<name>.<op>` for generic master-data handlers, `op:<name>` for hand-written ones. */
  handler: string;
}

export interface EndpointFile {
  $schema?: string;
  family: Family;
  /** URL prefix, e.g. /cdm/api or /auth/public (auth has two prefixes: see `publicCodes`). */
  endpoints: EndpointEntry[];
}

export interface Catalog {
  families: Record<Family, EndpointEntry[]>;
}

/** Families with public codes: login and label peeks (auth), shared files (storage). */
export const PUBLIC_FAMILIES: readonly Family[] = ['auth', 'storage'];

/** The URL a call goes to. Auth and storage split into /<family>/public (no token) and /<family>/api. */
export function endpointPath(family: Family, entry: Pick<EndpointEntry, 'code' | 'permission'>): string {
  if (entry.permission === 'public' && PUBLIC_FAMILIES.includes(family)) return `/${family}/public/${entry.code}`;
  return `/${family}/api/${entry.code}`;
}

export function findEndpoint(catalog: Catalog, family: Family, code: string): EndpointEntry | undefined {
  return catalog.families[family]?.find((e) => e.code === code);
}

/** Right code meaning "any logged-in user" (spec §2, §6). */
export const ANY_USER = '1';
export const PUBLIC = 'public';
