// Feeds the process monitor (domain/system/monitor.ts): every answered API call — endpoint, company,
// account, answer code, time taken — is added to the in-memory per-minute aggregate. Nothing is written per
// request; the monitor adds the aggregate to the database at each heartbeat.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../catalog/context.ts';
import type { Monitor } from '../domain/system/monitor.ts';

interface CountedRequest extends FastifyRequest {
  caller?: Caller | null;
  answerCode?: string;
}

const ENVELOPE_CODE = /^\{"code":"([^"]{1,40})"/;
const FAMILY = /^\/(cdm|oms|auth|storage)\//;

export function registerUsage(app: FastifyInstance, monitor: Monitor): void {
  // Callback hooks, not async ones: an async onSend defers the answer by microtask turns on every
  // request, and the reply is then not yet sent when the handler's promise settles, so Fastify listens for
  // the end of the stream (bench:stock's profile showed both on the posting path).
  app.addHook('onRequest', (_req, _reply, done) => {
    monitor.inFlight++;
    done();
  });
  app.addHook('onSend', (req: CountedRequest, _reply, payload, done) => {
    if (typeof payload === 'string') req.answerCode = ENVELOPE_CODE.exec(payload.slice(0, 60))?.[1];
    done(null, payload);
  });
  app.addHook('onResponse', (req: CountedRequest, reply: FastifyReply, done) => {
    monitor.inFlight--;
    record(req, reply);
    done();
  });
  const record = (req: CountedRequest, reply: FastifyReply) => {
    const code = (req.params as { code?: string } | undefined)?.code;
    if (!code || !/^\d{6}$/.test(code)) return;
    const family = FAMILY.exec(req.url)?.[1];
    if (!family) return;
    const caller = req.caller;
    const answer = req.answerCode ?? (reply.statusCode >= 500 ? '500' : reply.statusCode === 200 ? '200' : String(reply.statusCode));
    monitor.record(`${family}:${code}`, caller?.company.id ?? 0, caller?.company.timeZone ?? 0, caller?.accountId ?? 0, answer, reply.elapsedTime);
  };
}
