// PostgreSQL side of table-writes.ts: the tables every server process writes are recorded in the
// database itself, and kept list pages are checked against those records, so that a page is never
// served once a write touching its tables has been answered — by this process or any other.
// - Every pooled connection is instrumented: the tables a statement writes are read off its text. A
//   transaction that wrote inserts one `table_write` row per table just before its COMMIT, in the same
//   transaction: the rows become visible exactly when its writes do. A write outside a transaction
//   records its tables right after it ran, before its caller gets the result (so before any answer).
// - A token is the sum of the counts of a page's tables (plus EVERY_TABLE), read with one query from a
//   connection of its own. Requests share a count only if it was read after they arrived: one that
//   arrives while a count is under way waits for the next (which may have seen a write answered
//   meanwhile), and all who wait share that one. Measured cost: see README (bench:api).
// - Every few seconds one process (an advisory lock decides) folds the rows into `table_write_total`
//   in one transaction, so the log stays small and the sums only grow.
// Replaces NOTIFY after commit, which could arrive after the writer's answer (42 % stale reads behind
// a load balancer, issue 19.12). Until migration 017 has made the tables, nothing is recorded and no
// count can be read: pages are then never served from the cache.
import pg from 'pg';
import { TableWrites, writtenTables } from './table-writes.ts';

type QueryFn = (...args: unknown[]) => unknown;

const RECORD = 'insert into table_write (tbl) select unnest($1::text[])';
const COUNTS = `select tbl, sum(n)::bigint as n from (
  select tbl, n from table_write_total union all select tbl, count(*) as n from table_write group by tbl
) c group by tbl`;
const FOLD = `with gone as (delete from table_write returning tbl)
  insert into table_write_total (tbl, n) select tbl, count(*) from gone group by tbl
  on conflict (tbl) do update set n = table_write_total.n + excluded.n`;
const FOLD_LOCK = 424243;
const FOLD_EVERY_MS = 2000;

/** Whether the log table exists yet (migrations create it); once it does, it stays. */
class LogPresence {
  #present = false;
  async check(query: QueryFn): Promise<boolean> {
    if (this.#present) return true;
    const r = (await query("select to_regclass('table_write') is not null as present")) as { rows: Array<{ present: boolean }> };
    this.#present = r.rows[0]?.present === true;
    return this.#present;
  }
}

function instrument(client: pg.PoolClient | pg.Client, presence: LogPresence, recorded: () => void): void {
  const query = client.query.bind(client) as QueryFn;
  const record = async (tables: readonly string[]) => {
    if (!(await presence.check(query))) return;
    await query(RECORD, [tables]);
    recorded();
  };
  let inTransaction = false;
  const pending = new Set<string>();
  (client as { query: QueryFn }).query = (...args: unknown[]) => {
    const first = args[0] as { text?: unknown } | string | undefined;
    const text = typeof first === 'string' ? first : first?.text;
    // Callback style and submittables (cursors: streamed reads) are passed through as they are; a write
    // among them inside a transaction is still recorded at its commit.
    if (typeof text !== 'string' || typeof first !== 'string' || typeof args[args.length - 1] === 'function') {
      if (typeof text === 'string') {
        const tables = writtenTables(text);
        if (tables.length && inTransaction) for (const t of tables) pending.add(t);
        else if (tables.length) void record(tables).catch((e) => console.error(`[table-writes] ${(e as Error).message}`));
      }
      return query(...args);
    }
    const head = text.trimStart().slice(0, 12).toLowerCase();
    if (head.startsWith('begin') || head.startsWith('start tran')) {
      inTransaction = true;
      pending.clear();
      return query(...args);
    }
    if (head.startsWith('commit') || head === 'end' || head.startsWith('end ') || head.startsWith('end;')) {
      inTransaction = false;
      if (!pending.size) return query(...args);
      const tables = [...pending];
      pending.clear();
      // Recorded inside the transaction, right before it commits: if recording fails, the commit is
      // not sent and the caller rolls back — a write is never committed unrecorded.
      return (async () => {
        await record(tables);
        return query(...args);
      })();
    }
    if (head.startsWith('rollback')) {
      // ROLLBACK TO SAVEPOINT keeps the transaction (and what it wrote before the savepoint) going.
      if (!/^\s*rollback\s+to\b/i.test(text)) {
        inTransaction = false;
        pending.clear();
      }
      return query(...args);
    }
    const tables = writtenTables(text);
    if (!tables.length) return query(...args);
    if (inTransaction) {
      for (const t of tables) pending.add(t);
      return query(...args);
    }
    return (async () => {
      const result = await (query(...args) as Promise<unknown>);
      await record(tables);
      return result;
    })();
  };
}

/** Counts read after the caller asked: shared by everyone who asked while the previous one ran. */
class SharedCounts {
  #running: Promise<ReadonlyMap<string, number>> | undefined;
  #next: Promise<ReadonlyMap<string, number>> | undefined;
  constructor(private readonly read: () => Promise<ReadonlyMap<string, number>>) {}

  get(): Promise<ReadonlyMap<string, number>> {
    if (!this.#running) return this.#start();
    // The count under way may have started before this caller's request arrived: wait for the next.
    if (!this.#next) {
      const after = this.#running;
      this.#next = after.then(() => undefined, () => undefined).then(() => {
        this.#next = undefined;
        return this.#start();
      });
    }
    return this.#next;
  }

  #start(): Promise<ReadonlyMap<string, number>> {
    const p = this.read().finally(() => {
      if (this.#running === p) this.#running = undefined;
    });
    this.#running = p;
    return p;
  }
}

/**
 * Moves the log's rows into the totals in one transaction (skipped while another process does it):
 * every sum a reader sees stays the same.
 */
export async function foldWriteLog(c: pg.ClientBase): Promise<void> {
  try {
    await c.query('begin');
    const got = await c.query<{ got: boolean }>('select pg_try_advisory_xact_lock($1) as got', [FOLD_LOCK]);
    if (got.rows[0]?.got) await c.query(FOLD);
    await c.query('commit');
  } catch (e) {
    await c.query('rollback').catch(() => undefined);
    throw e;
  }
}

export function watchPostgresWrites(pools: pg.Pool[], connectionString: string): { writes: TableWrites; close(): Promise<void> } {
  const presence = new LogPresence();
  // Its own connection: reading counts never waits behind the pool, and is never itself instrumented.
  const own = new pg.Pool({ connectionString, max: 1 });
  own.on('error', () => undefined); // an idle connection dropped: the next query reconnects
  let recordedSinceFold = 0;
  for (const pool of pools) pool.on('connect', (client) => instrument(client, presence, () => { recordedSinceFold++; }));

  const counts = new SharedCounts(async () => {
    const r = await own.query<{ tbl: string; n: number }>(COUNTS);
    return new Map(r.rows.map((x) => [x.tbl, Number(x.n)]));
  });
  const writes = new TableWrites(() => 0, () => counts.get());

  let folding: Promise<void> = Promise.resolve();
  const fold = async () => {
    if (!recordedSinceFold) return;
    recordedSinceFold = 0;
    const c = await own.connect();
    try {
      await foldWriteLog(c);
    } catch (e) {
      console.error(`[table-writes] fold: ${(e as Error).message}`);
    } finally {
      c.release();
    }
  };
  const timer = setInterval(() => { folding = folding.then(fold); }, FOLD_EVERY_MS);
  timer.unref();
  return {
    writes,
    async close() {
      clearInterval(timer);
      await folding;
      await own.end();
    },
  };
}

