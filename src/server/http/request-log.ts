// The server log (pino, Fastify's own logger): one JSON line per request, written when the answer has
// gone, plus start-up, stop and unexpected errors. Only the fields named here are written — never headers,
// bodies, query strings (the image read carries its token there) or uploaded files — and pino's redaction
// is a second fence for anything a handler or plugin might log by itself.
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Caller } from '../catalog/context.ts';
import type { ServerConfig } from '../config.ts';

/** Request ids are the error ids of the admin error log (12 hex digits), so one id finds both. */
export const newRequestId = (): string => crypto.randomBytes(6).toString('hex').toUpperCase();

const REDACT = [
  'req.headers.token', 'req.headers.authorization', 'req.headers.cookie', 'headers.token', 'headers.authorization', 'headers.cookie',
  '*.password', '*.oldPassword', '*.newPassword', '*.accessToken', '*.refreshToken', '*.token',
  'body', '*.body', 'payload', 'file',
];

function prettyAvailable(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

/** Fastify's logger option for a configuration: off without LOG_LEVEL (tests, benchmarks, in-process servers). */
export function loggerOptions(config: ServerConfig, stream?: NodeJS.WritableStream | string): FastifyServerOptions['logger'] {
  if (!config.logLevel || config.logLevel === 'silent') return false;
  const pretty = !stream && config.logFormat === 'pretty' && prettyAvailable();
  return {
    level: config.logLevel,
    // a file name goes to pino's own buffered writer (as stdout does), a stream is written as given
    ...(typeof stream === 'string' ? { file: stream } : stream ? { stream } : {}),
    redact: { paths: REDACT, censor: '[已隐藏]' },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'hostname' } } } : {}),
  };
}

interface LoggedRequest extends FastifyRequest {
  caller?: Caller | null;
  envelopeCode?: string;
}

const ENVELOPE_CODE = /^\{"code":"([^"]{1,40})"/;

/** Whether the app has a real logger (Fastify's stand-in for `logger: false` has the level 'silent'). */
export const loggingOn = (app: FastifyInstance): boolean => app.log.level !== 'silent';

/** The per-request line: who called which endpoint, what came back, how long it took. */
export function registerRequestLog(app: FastifyInstance): void {
  if (!loggingOn(app)) return;
  // callback hooks: see usage.ts
  app.addHook('onSend', (req: LoggedRequest, _reply, payload, done) => {
    if (typeof payload === 'string') req.envelopeCode = ENVELOPE_CODE.exec(payload.slice(0, 60))?.[1];
    done(null, payload);
  });
  app.addHook('onResponse', (req: LoggedRequest, reply: FastifyReply, done) => {
    const code = (req.params as { code?: string } | undefined)?.code;
    // a load balancer's probes every few seconds would drown the requests
    const probe = req.url === '/healthz' || req.url === '/readyz';
    req.log[probe ? 'debug' : 'info']({
      method: req.method,
      path: req.url.split('?')[0].slice(0, 200),
      endpoint: code && /^\d{6}$/.test(code) ? code : undefined,
      companyId: req.caller?.company.id,
      accountId: req.caller?.accountId,
      status: reply.statusCode,
      envelope: req.envelopeCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    }, 'request');
    done();
  });
}
