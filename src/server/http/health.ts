// Probes for a load balancer or orchestrator, open to anyone and saying nothing beyond up/ready:
//   /healthz  the process answers (liveness)
//   /readyz   the database answers and every migration this build knows is applied (readiness);
//             503 while the process is stopping, so the balancer sends new work elsewhere.
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/connection.ts';
import { MIGRATIONS } from '../db/migrate.ts';

export function registerHealth(app: FastifyInstance, database: Database, stopping: () => boolean): void {
  const answer = { 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8' };
  app.get('/healthz', async (_req, reply) => reply.code(200).headers(answer).send('{"status":"ok"}'));
  app.get('/readyz', async (req, reply) => {
    if (stopping()) return reply.code(503).headers(answer).send('{"status":"stopping"}');
    try {
      const rows = await database.db.selectFrom('schemaMigration').select('name').execute();
      const applied = new Set(rows.map((r) => r.name as string));
      const missing = MIGRATIONS.filter((m) => !applied.has(m.name));
      if (missing.length) {
        req.log.warn({ missing: missing.map((m) => m.name) }, 'readyz: migrations pending');
        return reply.code(503).headers(answer).send('{"status":"unavailable"}');
      }
      return reply.code(200).headers(answer).send('{"status":"ok"}');
    } catch (e) {
      req.log.warn({ err: e }, 'readyz: database unavailable');
      return reply.code(503).headers(answer).send('{"status":"unavailable"}');
    }
  });
}
