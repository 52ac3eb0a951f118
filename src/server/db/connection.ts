// One Kysely instance over SQLite (default, a file under DATA_DIR) or PostgreSQL (DATABASE_URL).
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, type Driver } from 'kysely';
import { registerAutonomous } from './autonomous.ts';
import { startCheckpointer } from './checkpointer.ts';
import { FastCamelCasePlugin } from './camel-case.ts';
import { cachedStatements } from './sqlite-statements.ts';
import { TableWrites } from './table-writes.ts';
import { watchPostgresWrites } from './postgres-writes.ts';

// Tables are addressed by name from schemas (generic resources), so the query layer is untyped here;
// hand-written domain code narrows its rows with local interfaces.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type DB = Kysely<any>;
export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: DB;
  dialect: Dialect;
  /** which tables have been written, by this process or others (table-writes.ts) */
  writes: TableWrites;
  /** PostgreSQL: the main pool's connections (服务监控); undefined on SQLite (one connection). */
  poolStats?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

// pg returns int8/numeric as strings; our int8 columns hold scaled integers well inside 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export interface OpenOptions {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  /** SQLite: WAL checkpoints on a worker thread instead of inside commits (the server; see checkpointer.ts). */
  backgroundCheckpoint?: boolean;
}

export function openDatabase(opts: OpenOptions): Database {
  const plugins = [new FastCamelCasePlugin()];
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }), plugins });
    // Two connections apart from the pool for statements that commit on their own (autonomous.ts): a
    // transaction holding a pool connection may wait for them, so they never wait for the pool.
    const ownPool = new pg.Pool({ connectionString: opts.databaseUrl, max: 2 });
    const own = new Kysely<any>({ dialect: new PostgresDialect({ pool: ownPool }), plugins });
    registerAutonomous(db, own);
    const watch = watchPostgresWrites([pool, ownPool], opts.databaseUrl);
    return {
      db,
      dialect: 'postgres',
      writes: watch.writes,
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: async () => {
        await watch.close();
        await own.destroy();
        await db.destroy();
      },
    };
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const file = path.join(opts.dataDir, 'app.sqlite');
  const sqlite = new SQLite(file);
  // busy_timeout makes concurrent writers wait, not fail — set first: switching a new file to WAL takes
  // a lock that another process starting at the same moment may hold. WAL lets readers run while one
  // writer commits.
  sqlite.pragma('busy_timeout = 10000');
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // Pages are read from a memory map (256 MB) instead of read() copies into a 2 MB page cache that a
  // 100,000-row table does not fit: a keyword count over it (a full scan) costs ~15% less CPU, none of
  // it in the kernel. A larger page cache (32 MB) for what the map does not cover and for writes; sorts
  // and temporary indexes in memory.
  sqlite.pragma('mmap_size = 268435456');
  sqlite.pragma('cache_size = -32768');
  sqlite.pragma('temp_store = memory');
  const checkpointer = opts.backgroundCheckpoint ? startCheckpointer(sqlite, file) : undefined;
  // Rows are read already under the plugin's names, and SQLite's values are never arrays or objects:
  // the plugin passes them through untouched (camel-case.ts).
  const camel = new FastCamelCasePlugin({ plainValues: true });
  // data_version changes when another connection (another process) commits to the file.
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  const writes = new TableWrites(() => dataVersion.get() as number);
  const db = new Kysely<any>({ dialect: new ImmediateSqliteDialect({ database: cachedStatements(sqlite, writes, camel.columnName) }), plugins: [camel] });
  return {
    db,
    dialect: 'sqlite',
    writes,
    close: async () => {
      await checkpointer?.close();
      await db.destroy();
    },
  };
}

/**
 * Transactions take SQLite's write lock when they begin (BEGIN IMMEDIATE). A deferred transaction that
 * reads, then finds that another process committed before its first write, fails with
 * SQLITE_BUSY_SNAPSHOT and must start over; taken up front, the lock is simply waited for (busy_timeout).
 */
class ImmediateSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    return driver;
  }
}

export function nowIso(): string {
  return new Date().toISOString();
}
