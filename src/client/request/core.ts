// The request core (spec §7–§8): one function keyed by family and code. Transport facts come only from
// the endpoint catalog. Every call resolves to an envelope {code, msg, data} — it never rejects for a
// server, network or duplicate outcome (it throws only for a code the catalog does not list):
//   - the server's envelope (code '200', a business code, '500', '5011', ...), after showing what spec §8
//     says the user sees;
//   - CLIENT_DUPLICATE when an identical request was already in flight (dropped, nothing sent, no toast);
//   - CLIENT_NETWORK when no usable answer arrived (toast '后台接口无响应');
//   - CLIENT_FILE_ERROR when a file call failed without an envelope (toast '导出失败，请联系管理员' or,
//     for templates, '下载失败');
//   - CLIENT_ABORTED when the caller's AbortSignal fired (no toast).
// A successful file call saves the file and resolves to {code:'200', data:{fileName, size}}.

import axios, { type AxiosRequestConfig, type AxiosResponse } from 'axios';
import type { EndpointEntry, Family } from '../../core/catalog';
import { OK, TOKEN_INVALID, type Envelope } from '../../core/codes';
import { getAccessToken } from '../session/storage';
import { getEndpoint, isPublicEndpoint, pathOf } from './catalog';
import { acquire, release, requestKey } from './dedupe';
import { fileNameFromDisposition } from './download';
import { IDEMPOTENCY_HEADER, settleSubmission, submissionKey } from './idempotency';
import {
  CLIENT_ABORTED,
  CLIENT_DUPLICATE,
  CLIENT_FILE_ERROR,
  CLIENT_NETWORK,
  asEnvelope,
  clientEnvelope,
} from './envelope';
import { presentEnvelope } from './errors';
import { endSession } from './navigation';
import { holdOverlay } from './overlay';
import { getPresenter } from './presenter';
import { pendingRefresh, refreshAccessToken } from './refresh';
import { DEFAULT_IMAGE_SIZE, EXPORT_FAILED_TEXT, NETWORK_ERROR_TEXT, TEMPLATE_FAILED_TEXT } from './texts';
import { http } from './transport';

/** Calls that, when retried after 5012, also carry the token in the JSON body as `token` (spec §7). */
export const TOKEN_IN_BODY_ON_RETRY: ReadonlySet<string> = new Set(['990104', '990106']);
/** A request is sent at most this many times because of 5012 (1 + retries); then the session ends. */
const MAX_ATTEMPTS = 3;

export type ExtraParamName = 'priceTitleId' | 'pptId';

export interface CallOptions {
  /** Values of the entry's extra params (priceTitleId → header; pptId → query and header). Falls back
   *  to the body field of the same name. */
  extra?: Partial<Record<ExtraParamName, string | number>>;
  /** The file of a multipart call (sent as form field `file`). */
  file?: Blob;
  /** Upload: the file name to send; download: the name used when the response has none. */
  fileName?: string;
  /** File call: a template download (failure toast '下载失败'). Default: catalog name contains 模板. */
  template?: boolean;
  signal?: AbortSignal;
  /** Upload progress, 0–100. */
  onUploadProgress?: (percent: number) => void;
  /** Idempotent codes: the submission's key, when the caller keeps one (e.g. per form instance);
   *  otherwise the core takes one per call (see idempotency.ts). */
  idempotencyKey?: string;
  /** A background call whose caller shows its failures itself (the wall screen's refresh): no toasts
   *  and no server-error modal, which nobody in front of an unattended screen would close. A session
   *  that ended still goes to /login. */
  quiet?: boolean;
}

export interface FileResult {
  fileName: string;
  size: number;
}

type Outcome =
  | { kind: 'envelope'; env: Envelope }
  | { kind: 'file'; blob: Blob; fileName: string }
  | { kind: 'network' }
  | { kind: 'fileError' }
  | { kind: 'aborted' };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !(typeof FormData !== 'undefined' && v instanceof FormData) && !(typeof Blob !== 'undefined' && v instanceof Blob);
}

function buildFormData(body: unknown, options: CallOptions): FormData {
  if (typeof FormData !== 'undefined' && body instanceof FormData) {
    if (options.file && !body.has('file')) body.append('file', options.file, options.fileName ?? fileNameOf(options.file));
    return body;
  }
  const form = new FormData();
  if (options.file) form.append('file', options.file, options.fileName ?? fileNameOf(options.file));
  if (isPlainObject(body)) {
    for (const [k, v] of Object.entries(body)) {
      if (v === undefined || v === null) continue;
      if (typeof Blob !== 'undefined' && v instanceof Blob) form.append(k, v, fileNameOf(v));
      else form.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
    }
  }
  return form;
}

function fileNameOf(b: Blob): string {
  return (b as Blob & { name?: string }).name || 'file';
}

function buildRequest(
  family: Family,
  entry: EndpointEntry,
  body: unknown,
  options: CallOptions,
  token: string | null,
  retry: boolean,
  idempotencyKey: string | undefined,
): AxiosRequestConfig {
  const headers: Record<string, string> = {};
  const params: Record<string, string> = {};
  if (token) headers.token = token;
  if (idempotencyKey) headers[IDEMPOTENCY_HEADER] = idempotencyKey;
  for (const x of entry.extra ?? []) {
    const fromBody = isPlainObject(body) ? body[x.name] : undefined;
    const v = options.extra?.[x.name] ?? fromBody;
    if (v === undefined || v === null || v === '') continue;
    headers[x.name] = String(v);
    if (x.in === 'query+header') params[x.name] = String(v);
  }
  let data: unknown;
  if (entry.method === 'GET' || entry.body === 'none') {
    data = undefined;
    if (entry.method === 'GET' && isPlainObject(body)) {
      for (const [k, v] of Object.entries(body)) if (v !== undefined && v !== null) params[k] = String(v);
    }
  } else if (entry.body === 'multipart') {
    data = buildFormData(body, options);
  } else {
    let json: Record<string, unknown> | unknown = body ?? {};
    if (retry && family === 'auth' && TOKEN_IN_BODY_ON_RETRY.has(entry.code) && token) {
      json = { ...(isPlainObject(json) ? json : {}), token };
    }
    data = json;
    headers['Content-Type'] = 'application/json';
  }
  const cfg: AxiosRequestConfig = {
    method: entry.method,
    url: pathOf(family, entry),
    headers,
    responseType: entry.response === 'file' ? 'blob' : 'json',
    signal: options.signal,
  };
  if (Object.keys(params).length) cfg.params = params;
  if (data !== undefined) cfg.data = data;
  if (options.onUploadProgress && entry.body === 'multipart') {
    const cb = options.onUploadProgress;
    cfg.onUploadProgress = (e) => {
      if (e.total) cb(Math.round((e.loaded / e.total) * 100));
    };
  }
  return cfg;
}

function header(res: AxiosResponse, name: string): string {
  const h = res.headers as Record<string, unknown> & { get?: (n: string) => unknown };
  const v = typeof h?.get === 'function' ? h.get(name) : (h?.[name] ?? h?.[name.toLowerCase()]);
  return v == null ? '' : String(v);
}

async function readText(blob: Blob): Promise<string> {
  if (typeof blob.text === 'function') return blob.text();
  if (typeof FileReader !== 'undefined') {
    return new Promise((resolve, reject) => {
      const r = new FileReader();
      r.onload = () => resolve(String(r.result ?? ''));
      r.onerror = () => reject(r.error);
      r.readAsText(blob);
    });
  }
  return new Response(blob).text();
}

function toBlob(data: unknown, contentType: string): Blob | null {
  if (data === null || data === undefined) return null;
  if (typeof Blob !== 'undefined' && data instanceof Blob) return data;
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return new Blob([data as BlobPart], { type: contentType });
  if (typeof data === 'string') return new Blob([data], { type: contentType });
  if (typeof data === 'object') return new Blob([JSON.stringify(data)], { type: 'application/json' });
  return null;
}

async function send(cfg: AxiosRequestConfig, entry: EndpointEntry, options: CallOptions): Promise<Outcome> {
  let res: AxiosResponse;
  try {
    res = await http.request(cfg);
  } catch (e) {
    if (axios.isCancel(e) || (e as { code?: string })?.code === 'ERR_CANCELED') return { kind: 'aborted' };
    return entry.response === 'file' ? { kind: 'fileError' } : { kind: 'network' };
  }
  if (entry.response !== 'file') {
    const env = asEnvelope(res.data);
    return env ? { kind: 'envelope', env } : { kind: 'network' };
  }
  const contentType = header(res, 'content-type').toLowerCase();
  const disposition = header(res, 'content-disposition');
  const blob = toBlob(res.data, contentType);
  if (!blob) return { kind: 'fileError' };
  const mayBeEnvelope =
    contentType.includes('json') || (!disposition && (contentType === '' || contentType.startsWith('text/')) && blob.size < 65536);
  if (mayBeEnvelope) {
    try {
      const env = asEnvelope(await readText(blob));
      if (env) return { kind: 'envelope', env };
    } catch {
      // not readable: decide below
    }
    if (contentType.includes('json')) return { kind: 'fileError' };
  }
  if (res.status < 200 || res.status >= 300) return { kind: 'fileError' };
  const fileName = fileNameFromDisposition(disposition) ?? options.fileName ?? entry.name;
  return { kind: 'file', blob, fileName };
}

async function execute<T>(family: Family, entry: EndpointEntry, body: unknown, options: CallOptions, idempotencyKey?: string): Promise<Envelope<T>> {
  const publicCall = isPublicEndpoint(entry);
  const template = options.template ?? entry.name.includes('模板');
  let attempts = 0;
  for (;;) {
    if (!publicCall) {
      const waiting = pendingRefresh();
      if (waiting) {
        // Held in the queue until the refresh ends, then replayed with the new token.
        const r = await waiting;
        if (!r.ok) return (r.envelope ?? clientEnvelope(TOKEN_INVALID)) as Envelope<T>;
      }
    }
    const token = publicCall ? null : getAccessToken();
    attempts += 1;
    // The same idempotency key on every attempt: a replay after 5012 is the same submission.
    const outcome = await send(buildRequest(family, entry, body, options, token, attempts > 1, idempotencyKey), entry, options);

    switch (outcome.kind) {
      case 'aborted':
        return clientEnvelope(CLIENT_ABORTED) as Envelope<T>;
      case 'network':
        if (!options.quiet) getPresenter().toast('error', NETWORK_ERROR_TEXT);
        return clientEnvelope(CLIENT_NETWORK, NETWORK_ERROR_TEXT) as Envelope<T>;
      case 'fileError': {
        const text = template ? TEMPLATE_FAILED_TEXT : EXPORT_FAILED_TEXT;
        getPresenter().toast('error', text);
        return clientEnvelope(CLIENT_FILE_ERROR, text) as Envelope<T>;
      }
      case 'file':
        getPresenter().saveFile(outcome.blob, outcome.fileName);
        return { code: OK, msg: '', data: { fileName: outcome.fileName, size: outcome.blob.size } } as Envelope<T>;
      case 'envelope':
        break;
    }

    const env = outcome.env;
    if (env.code === TOKEN_INVALID && !publicCall) {
      if (attempts >= MAX_ATTEMPTS) {
        endSession();
        return env as Envelope<T>;
      }
      const current = getAccessToken();
      if (current && current !== token) continue; // stale token: retry with the current one
      const r = await refreshAccessToken(token);
      if (r.ok) continue;
      return env as Envelope<T>;
    }
    presentEnvelope(env, { publicCall, quiet: options.quiet });
    return env as Envelope<T>;
  }
}

/**
 * Call endpoint `code` of `family` as the catalog describes it. See the module comment for what it
 * resolves to. Identical requests in flight are dropped (CLIENT_DUPLICATE) unless the entry says
 * dedupe:false; overlay:true entries hold the processing overlay while they run.
 */
export async function callApi<T = unknown>(
  family: Family,
  code: string,
  body?: unknown,
  options: CallOptions = {},
): Promise<Envelope<T>> {
  const entry = getEndpoint(family, code);
  const identity = (): string => requestKey(family, code, body, { extra: options.extra ?? null, file: options.file ?? null });
  const key = entry.dedupe === false ? null : identity();
  if (key !== null && !acquire(key)) return clientEnvelope(CLIENT_DUPLICATE) as Envelope<T>;
  const releaseOverlay = entry.overlay ? holdOverlay() : null;
  const submission = entry.idempotent ? (key ?? identity()) : null;
  const idempotencyKey = submission !== null ? submissionKey(submission, options.idempotencyKey) : undefined;
  try {
    const env = await execute<T>(family, entry, body, options, idempotencyKey);
    if (submission !== null) settleSubmission(submission, idempotencyKey!, env.code !== CLIENT_NETWORK && env.code !== CLIENT_ABORTED);
    return env;
  } finally {
    if (key !== null) release(key);
    releaseOverlay?.();
  }
}

/** Thrown by callApiData when the envelope is not '200'; the user has already been shown the error. */
export class ApiError extends Error {
  readonly code: string;
  constructor(readonly envelope: Envelope) {
    super(envelope.msg || envelope.code);
    this.name = 'ApiError';
    this.code = envelope.code;
  }
}

/** callApi, resolving to `data` on '200' and rejecting with ApiError otherwise. */
export async function callApiData<T = unknown>(
  family: Family,
  code: string,
  body?: unknown,
  options?: CallOptions,
): Promise<T> {
  const env = await callApi<T>(family, code, body, options);
  if (env.code !== OK) throw new ApiError(env);
  return env.data;
}

export function isOk<T>(env: Envelope<T> | null | undefined): env is Envelope<T> {
  return !!env && env.code === OK;
}

const FAMILIES: readonly Family[] = ['auth', 'storage', 'cdm', 'oms'];

/** Split a schema reference such as "oms:020201" into family and code. */
export function parseApiRef(ref: string): { family: Family; code: string } {
  const m = /^(auth|storage|cdm|oms):(\d{6})$/.exec(ref.trim());
  if (!m || !FAMILIES.includes(m[1] as Family)) throw new Error(`接口引用格式错误：${ref}（应为 family:code）`);
  return { family: m[1] as Family, code: m[2]! };
}

/** callApi with a schema reference ("cdm:010201"). */
export function callApiRef<T = unknown>(ref: string, body?: unknown, options?: CallOptions): Promise<Envelope<T>> {
  const { family, code } = parseApiRef(ref);
  return callApi<T>(family, code, body, options);
}

type FamilyCaller = <T = unknown>(code: string, body?: unknown, options?: CallOptions) => Promise<Envelope<T>>;

/** Shorthands: api.cdm('010201', {...}), api.oms(...), api.auth(...), api.storage(...). */
export const api: Record<Family, FamilyCaller> = {
  auth: (code, body, options) => callApi('auth', code, body, options),
  storage: (code, body, options) => callApi('storage', code, body, options),
  cdm: (code, body, options) => callApi('cdm', code, body, options),
  oms: (code, body, options) => callApi('oms', code, body, options),
};

/** Upload one file with /storage/api/980107 (multipart field `file`); data carries the mediaId. */
export function uploadFile<T = { mediaId: string }>(
  file: Blob,
  options: Omit<CallOptions, 'file'> = {},
): Promise<Envelope<T>> {
  return callApi<T>('storage', '980107', undefined, { ...options, file });
}

/** URL of an image: /storage/api/980106?mediaId={id}_{size}&token={token} (size default 80). */
export function imageUrl(mediaId: string | number, size: number = DEFAULT_IMAGE_SIZE): string {
  const path = pathOf('storage', getEndpoint('storage', '980106'));
  const token = getAccessToken() ?? '';
  return `${path}?mediaId=${encodeURIComponent(`${mediaId}_${size}`)}&token=${encodeURIComponent(token)}`;
}
