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
  app.addHook('onRequest', async () => {
    monitor.inFlight++;
  });
  app.addHook('onSend', async (req: CountedRequest, _reply, payload) => {
    if (typeof payload === 'string') req.answerCode = ENVELOPE_CODE.exec(payload.slice(0, 60))?.[1];
    return payload;
  });
  app.addHook('onResponse', async (req: CountedRequest, reply: FastifyReply) => {
    monitor.inFlight--;
    const code = (req.params as { code?: string } | undefined)?.code;
    if (!code || !/^\d{6}$/.test(code)) return;
    const family = FAMILY.exec(req.url)?.[1];
    if (!family) return;
    const caller = req.caller;
    const answer = req.answerCode ?? (reply.statusCode >= 500 ? '500' : reply.statusCode === 200 ? '200' : String(reply.statusCode));
    monitor.record(`${family}:${code}`, caller?.company.id ?? 0, caller?.company.timeZone ?? 0, caller?.accountId ?? 0, answer, reply.elapsedTime);
  });
}
