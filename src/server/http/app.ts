// The Fastify app: the four call families, the envelope, error mapping, catalog docs and the client.
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { Catalog, Family } from '../../core/catalog.ts';
import { BUSINESS_CODES, SERVER_ERROR, formatMessage } from '../../core/codes.ts';
import { authenticate, holdsRight } from '../auth/caller.ts';
import type { BoundEndpoint } from '../catalog/bind.ts';
import type { CallContext, Caller } from '../catalog/context.ts';
import { Tenant } from '../catalog/tenant.ts';
import { instanceRightsOf, type InstancePolicy } from '../auth/operator.ts';
import { wallMayCall } from '../auth/wall.ts';
import { validateInput } from '../catalog/validate-input.ts';
import type { ServerConfig } from '../config.ts';
import type { DB, Database } from '../db/connection.ts';
import { fail, ok } from './envelope.ts';
import { ApiError, bizError } from './errors.ts';
import { contentDisposition, FileResponse } from './file-response.ts';
import { jsonDeeperThan, MAX_JSON_DEPTH } from './json-limits.ts';
import { JsonText, okEnvelopeText } from './json-text.ts';
import { writeAudit, writeErrorLog } from './logs.ts';
import { registerHealth } from './health.ts';
import { loggerOptions, loggingOn, newRequestId, registerRequestLog } from './request-log.ts';
import { registerUsage } from './usage.ts';
import type { Monitor } from '../domain/system/monitor.ts';
import { idempotentCall, Replay } from './idempotency.ts';
import { buildOpenApi } from './openapi.ts';
import { headerToken, requestToken } from './request-token.ts';
import { inTransaction } from './transaction.ts';
import type { DocumentType } from '../documents/engine.ts';

export interface AppDeps {
  config: ServerConfig;
  database: Database;
  catalog: Catalog;
  bound: Map<string, BoundEndpoint>;
  /** the document types the engine serves */
  documents?: ReadonlyMap<string, DocumentType>;
  /** where log lines go instead of stdout (tests read them) */
  logStream?: NodeJS.WritableStream | string;
  /** the process monitor counting API calls per minute (domain/system/monitor.ts) */
  monitor?: Monitor;
}

/** Every file answer: no script, no plugin, no request, an opaque origin (styles for a browser's own image view). */
const FILE_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";

function sendError(reply: FastifyReply, e: ApiError): FastifyReply {
  return reply.code(200).type('application/json; charset=utf-8').send(fail(e.code, e.message, e.data));
}

const STOPPERS = new WeakMap<FastifyInstance, () => void>();

/**
 * The first step of a stop, at once and before anything else runs: /readyz answers 503 and every request
 * after this one is refused with COMMON_STOPPING_4030 (on an open connection too, which it then closes)
 * — the listener may stay open a while (SHUTDOWN_DRAIN_MS) for a balancer to see it and move away.
 */
export function beginStop(app: FastifyInstance): void {
  STOPPERS.get(app)?.();
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database, bound, catalog } = deps;
  // which companies run the installation, and the rights the others never hold (auth/operator.ts)
  const policy: InstancePolicy = { operatorCodes: config.operatorCompanies, instanceRights: instanceRightsOf(catalog) };
  const documents = deps.documents ?? new Map<string, DocumentType>();
  const app: FastifyInstance = Fastify({
    logger: loggerOptions(config, deps.logStream),
    // our own line per request (request-log.ts) instead of Fastify's two
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: newRequestId,
    // a stopping process answers with our envelope (below), not Fastify's bare 503
    return503OnClosing: false,
    trustProxy: config.trustProxy,
    bodyLimit: 2 * 1024 * 1024,
  });

  // Empty bodies are fine for no-body calls; anything else must be a JSON object.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body).trim();
    if (!text) return done(null, {});
    if (jsonDeeperThan(text)) return done(bizError('COMMON_BAD_REQUEST_4001', { detail: `内容嵌套超过 ${MAX_JSON_DEPTH} 层` }), undefined);
    try {
      const value = JSON.parse(text);
      // PostgreSQL text cannot hold NUL and no field of ours has a use for it: refuse it on both databases.
      if (/\\u0000/i.test(text) && JSON.stringify(value).includes('\\u0000')) {
        return done(bizError('COMMON_BAD_REQUEST_4001', { detail: '内容包含非法字符（NUL）' }), undefined);
      }
      done(null, value);
    } catch {
      done(bizError('COMMON_BAD_REQUEST_4001', { detail: 'JSON 无法解析' }), undefined);
    }
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, _body, done) => done(null, undefined));
  await app.register(multipart, { limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 20 } });

  app.setErrorHandler(async (err: any, req, reply) => {
    if (err instanceof ApiError) return sendError(reply, err);
    if (err?.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err?.statusCode === 413) return sendError(reply, bizError('COMMON_TOO_LARGE_4015'));
    if (err?.statusCode && err.statusCode < 500) return sendError(reply, bizError('COMMON_BAD_REQUEST_4001', { detail: '请求无法解析' }));
    const caller = (req as FastifyRequest & { caller?: Caller | null }).caller;
    const id = await writeErrorLog(database.db, { id: req.id, log: loggingOn(app) ? req.log : undefined, method: req.method, url: req.url, error: err, companyId: caller?.company.id, accountId: caller?.accountId });
    return reply.code(200).send(fail(SERVER_ERROR, `服务器内部错误，错误编号 ${id}，请把此编号告诉管理员`));
  });

  // Stopping (app.close(), on SIGTERM in main.ts): the listener closes at once, a request that still
  // arrives on an open keep-alive connection is refused with an envelope before anything runs, and
  // handlers still running (a client may have hung up) finish before the database closes, bounded by
  // SHUTDOWN_TIMEOUT.
  let inFlight = 0;
  let stopping = false;
  STOPPERS.set(app, () => {
    stopping = true;
  });
  app.addHook('preClose', async () => {
    stopping = true;
  });
  // (per-request hooks take callbacks, not async functions: see http/usage.ts)
  app.addHook('onRequest', (_req, reply, done) => {
    if (!stopping) return done();
    reply.header('Connection', 'close');
    reply.code(503).type('application/json; charset=utf-8').send(fail('COMMON_STOPPING_4030', formatMessage(BUSINESS_CODES.COMMON_STOPPING_4030)));
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    // an answer finished while stopping ends its keep-alive connection, or the listener would wait for it
    if (stopping) reply.header('Connection', 'close');
    done(null, payload);
  });
  app.addHook('onClose', async () => {
    const deadline = Date.now() + config.shutdownTimeoutSec * 1000;
    while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    if (inFlight > 0) app.log.warn({ inFlight }, 'stop: requests still running after SHUTDOWN_TIMEOUT');
    app.server.closeIdleConnections?.();
  });
  registerRequestLog(app);
  if (deps.monitor && config.apiUsage) registerUsage(app, deps.monitor);
  registerHealth(app, database, () => stopping);
  const dispatch = (family: Family) => async (req: FastifyRequest, reply: FastifyReply) => {
    inFlight++;
    try {
      return await handle(family, req, reply);
    } finally {
      inFlight--;
    }
  };

  const handle = async (family: Family, req: FastifyRequest, reply: FastifyReply) => {
    const code = (req.params as { code: string }).code;
    const isPublicUrl = req.url.startsWith(`/${family}/public/`);
    // Every /api/ call proves who it is before anything else is looked at, so an anonymous caller learns
    // nothing from the answer: known code, unknown code, wrong family or wrong method all answer 5012.
    const token = isPublicUrl ? null : requestToken(req, family, code);
    const caller = isPublicUrl ? null : await authenticate(database.db, token, req.ip, policy);
    (req as FastifyRequest & { caller?: Caller | null }).caller = caller;
    const ep = bound.get(`${family}:${code}`);
    // A public code answers only under /<family>/public/, every other code only under /<family>/api/.
    if (!ep || isPublicUrl !== (ep.entry.permission === 'public')) {
      throw bizError('COMMON_API_NOT_EXIST_4005', { code: String(code).slice(0, 20) });
    }
    if (req.method !== ep.entry.method) throw bizError('COMMON_METHOD_4006', { code, method: req.method });
    const body = ep.entry.body === 'json' ? (req.body ?? {}) : {};
    if (ep.entry.body === 'json' && (typeof body !== 'object' || Array.isArray(body) || body === null)) {
      throw bizError('COMMON_BAD_REQUEST_4001', { detail: '请求体必须是 JSON 对象' });
    }
    if (caller && ep.entry.instance && !caller.company.operator) throw bizError('COMMON_NO_RIGHT_4003', { name: ep.entry.name });
    if (caller?.wall && !wallMayCall(`${family}:${code}`, ep.entry.permission)) throw bizError('COMMON_NO_RIGHT_4003', { name: ep.entry.name });
    if (caller && !holdsRight(caller, ep.entry.permission)) throw bizError('COMMON_NO_RIGHT_4003', { name: ep.entry.name });
    const endpointName = `${family}:${code}`;
    const tenant = caller ? new Tenant(database.db, caller.company.id) : undefined;
    // Codes marked idempotent that came with an Idempotency-Key (retry-safe writes, idempotency.ts).
    const idem = idempotentCall(database.db, ep.entry, caller, endpointName, req.headers, body, req.query);
    const ctx: CallContext = {
      family, entry: ep.entry, database, db: database.db, config, ip: req.ip,
      userAgent: String(req.headers['user-agent'] ?? ''), headers: req.headers, query: (req.query ?? {}) as Record<string, string>,
      token, caller, documents,
      get tenant(): Tenant {
        if (!tenant) throw new Error(`${endpointName} is public and has no company scope`);
        return tenant;
      },
      file: ep.entry.body === 'multipart' ? async () => (req.isMultipart() ? req.file() : undefined) : undefined,
      transaction: (fn) => {
        const work = (trx: DB) => fn(trx, tenant ? tenant.with(trx) : (undefined as any));
        return idem ? idem.transaction(database.db, work) : inTransaction(database.db, work);
      },
      audit: (e, db) => writeAudit(db ?? database.db, caller!, req.ip, endpointName, e),
    };
    const input = validateInput(ep.handler.input, body);
    const result = idem ? await idem.run(() => ep.handler.run(ctx, input)) : await ep.handler.run(ctx, input);
    if (result instanceof Replay) {
      reply.header('Idempotent-Replayed', 'true');
      return reply.type('application/json; charset=utf-8').send(okEnvelopeText(result.answer));
    }
    if (result instanceof FileResponse) {
      reply.header('Content-Type', result.contentType);
      reply.header('Content-Disposition', contentDisposition(result.fileName, result.inline));
      reply.header('Cache-Control', result.cacheControl);
      reply.header('X-Content-Type-Options', 'nosniff');
      // A file is data, never a page of this origin: opened in a tab it runs no script and reaches nothing.
      reply.header('Content-Security-Policy', FILE_CSP);
      return reply.send(result.body);
    }
    if (result instanceof JsonText) return reply.type('application/json; charset=utf-8').send(okEnvelopeText(result));
    return reply.send(ok(result ?? null));
  };

  for (const family of ['cdm', 'oms'] as Family[]) {
    app.route({ method: ['GET', 'POST'], url: `/${family}/api/:code`, handler: dispatch(family) });
  }
  app.route({ method: ['GET', 'POST'], url: '/auth/public/:code', handler: dispatch('auth') });
  app.route({ method: ['GET', 'POST'], url: '/auth/api/:code', handler: dispatch('auth') });
  app.route({ method: ['GET', 'POST'], url: '/storage/public/:code', handler: dispatch('storage') });
  app.route({ method: ['GET', 'POST'], url: '/storage/api/:code', handler: dispatch('storage') });

  app.get('/api/catalog', async (req) => {
    await authenticate(database.db, headerToken(req), req.ip, policy);
    return ok(catalog);
  });
  // Operations, handler names and rights are for logged-in users only, like the catalog.
  app.get('/api/openapi.json', async (req) => {
    await authenticate(database.db, headerToken(req), req.ip, policy);
    return buildOpenApi(catalog);
  });
  app.get('/api/codes', async (req) => {
    await authenticate(database.db, headerToken(req), req.ip, policy);
    return ok(Object.fromEntries(Object.entries(BUSINESS_CODES).map(([k, v]) => [k, formatMessage(v)])));
  });

  // Unknown API paths answer with an envelope, never an HTML page; under an /api/ path only to a caller
  // with a valid token (an anonymous caller gets 5012 there, whatever the path).
  app.setNotFoundHandler(async (req, reply) => {
    if (/^\/((auth|cdm|oms|storage)\/)?api(\/|\?|$)/.test(req.url)) await authenticate(database.db, headerToken(req), req.ip, policy);
    if (/^\/(auth|cdm|oms|storage|api)(\/|$)/.test(req.url)) return sendError(reply, bizError('COMMON_API_NOT_EXIST_4005', { code: req.url.split('?')[0].slice(0, 60) }));
    const index = path.join(config.clientDir, 'index.html');
    if (req.method === 'GET' && fs.existsSync(index)) return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(fs.createReadStream(index));
    return reply.code(404).type('text/plain; charset=utf-8').send('客户端尚未构建：请运行 npm run build');
  });
  if (fs.existsSync(config.clientDir)) {
    await app.register(fastifyStatic, { root: config.clientDir, wildcard: false, index: false, cacheControl: false,
      setHeaders(res, file) {
        res.setHeader('Cache-Control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.addHook('onSend', (_req, reply, payload, done) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    // No URL of this app (ids, document numbers, the image read's token) travels to another site.
    reply.header('Referrer-Policy', 'same-origin');
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      reply.header('Content-Security-Policy', "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self' data:; object-src 'none'; frame-ancestors 'self'; base-uri 'self'");
    }
    done(null, payload);
  });
  return app;
}
