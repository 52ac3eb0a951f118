// Assembles the server: database (migrated, seeded when empty), catalog bound to handlers, HTTP app.
import type { FastifyInstance } from 'fastify';
import { bindCatalog } from './catalog/bind.ts';
import { loadCatalog } from './catalog/load-catalog.ts';
import { buildRightsCatalog } from './catalog/rights-catalog.ts';
import type { ServerConfig } from './config.ts';
import { openDatabase, type Database } from './db/connection.ts';
import { prepareSchema } from './schema.ts';
import { seedIfEmpty } from './db/seed.ts';
import { seedDemoWalk } from './db/seed-demo-walk.ts';
import { startExportSweep } from './domain/export-retention.ts';
import { startAutoClosing, type AutoClosing } from './domain/reports/auto-closing.ts';
import { beginStop, buildApp } from './http/app.ts';
import { Monitor, registerMonitor } from './domain/system/monitor.ts';
import { allDocumentDefinitions, documentRights, loadDocumentTypes, withDocumentEndpoints, type DocumentDefinition } from './documents/index.ts';
import { startIdempotencySweep } from './http/idempotency.ts';
import { allOps } from './ops/index.ts';
import { loadResources, resourceResolver } from './resources/index.ts';

export interface Server {
  app: FastifyInstance;
  database: Database;
  /** the demo companies were seeded by this start (an empty database) */
  seeded: boolean;
  /** 自动日结: the timer closing each company's past days by itself (AUTO_CLOSE_MINUTES); runOnce() for one pass now */
  autoClosing: AutoClosing;
  /** Readiness fails and new requests are refused from now on (http/app.ts beginStop); close() still to follow. */
  beginStop(): void;
  close(): Promise<void>;
}

export interface ServerOptions {
  /** Seed the demo companies into an empty database (default true). */
  seed?: boolean;
  /** With a new demo company, also its walkable data (seed-demo-walk.ts): `npm start` and the e2e suite. */
  demoWalk?: boolean;
  /** Document types served besides the built-in ones (tests declare new types this way). */
  documents?: DocumentDefinition[];
  /** where the server log goes instead of stdout (benchmarks, tests) */
  logStream?: NodeJS.WritableStream | string;
}
/** (the name the demo-walk seed's callers use) */
export type CreateServerOptions = ServerOptions;

export async function createServer(config: ServerConfig, opts: ServerOptions = {}): Promise<Server> {
  const definitions = allDocumentDefinitions(opts.documents);
  const catalog = withDocumentEndpoints(loadCatalog(), definitions);
  const rights = buildRightsCatalog(catalog, undefined, documentRights(definitions));
  const resources = loadResources();
  const documents = loadDocumentTypes(catalog, resources, definitions);
  const ops = allOps({ catalog, rights, resources, documents });
  // Binding first: a catalog/handler mismatch must stop start-up before anything touches the database.
  const bound = bindCatalog(catalog, ops, resourceResolver(resources));
  const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, backgroundCheckpoint: true });
  try {
    await prepareSchema(database.db, database.dialect, definitions);
    const seeded = opts.seed !== false && (await seedIfEmpty(database.db, database.dialect));
    // heartbeat row and per-minute API usage of this process (服务监控, 接口分析)
    const monitor = registerMonitor(new Monitor(database, config));
    const app = await buildApp({ config, database, catalog, bound, documents, logStream: opts.logStream, monitor });
    if (seeded && opts.demoWalk) await seedDemoWalk(app);
    // export files past their retention go at start-up and hourly (export-retention.ts)
    const sweep = startExportSweep(database.db, config.dataDir, config.exportRetentionDays);
    const keySweep = startIdempotencySweep(database.db, config.idempotencyKeyHours);
    // each company's previous day closed once its midnight has passed, if nobody did (auto-closing.ts)
    const autoClosing = startAutoClosing(database, config.autoCloseMinutes * 60_000, (msg) => app.log.info(msg), (e, company) => app.log.error({ err: e, company }, '自动日结失败'));
    await monitor.start();
    return { app, database, seeded, autoClosing, beginStop: () => beginStop(app), close: async () => { beginStop(app); await autoClosing.stop(); await sweep.stop(); await keySweep.stop(); await app.close(); await monitor.stop(); await database.close(); } };
  } catch (e) {
    await database.close();
    throw e;
  }
}
