// PostgreSQL side of table-writes.ts: every pooled connection of this process reports the tables its
// statements write, and server processes sharing the database tell each other through NOTIFY.
// - A write inside a transaction counts when it runs and again when the transaction has committed
//   (until then other connections of the pool read the old rows); a write outside a transaction when
//   it finished.
// - What committed is told to the other processes by pg_notify(CHANNEL, '<process>|<tables>') sent
//   AFTER the commit, from the listening connection, for all commits of the moment at once. Not inside
//   the writing transaction: PostgreSQL serialises the commits of notifying transactions on one global
//   lock held through their WAL flush (seen as Lock:object waits on COMMIT), which would queue every
//   posting of every process behind each other. The price: a process that dies between a commit and
//   the notify leaves the others' pages of those tables stale for up to the cache's 60 s.
// - One connection per process LISTENs and counts what other processes wrote. While it is not
//   connected, nothing cached may be trusted (TableWrites.trusted); each new connection starts a new
//   epoch in the tokens, so entries cached before a gap are never trusted again.
import crypto from 'node:crypto';
import pg from 'pg';
import { TableWrites, writtenTables } from './table-writes.ts';

export const WRITES_CHANNEL = 'tbo_table_writes';
const RECONNECT_MS = 1000;

type QueryFn = (...args: unknown[]) => unknown;

/**
 * Tables committed by this process, told to the others in one notify per turn of the event loop, and
 * never more than one notify at a time: they go out on one connection, and a pg client handed a query
 * while another waits in its queue warns (pg@9 will refuse). What commits meanwhile waits and goes out
 * together in the next notify.
 */
export class Notifier {
  readonly #pending = new Set<string>();
  #scheduled = false;
  #sending = false;
  constructor(private readonly me: string, private readonly send: (payload: string) => Promise<unknown>) {}

  committed(tables: Iterable<string>): void {
    for (const t of tables) this.#pending.add(t);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled || this.#sending || !this.#pending.size) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      const payload = `${this.me}|${[...this.#pending].join(',')}`;
      this.#pending.clear();
      this.#sending = true;
      this.send(payload)
        .catch((e) => console.error(`[table-writes] notify failed: ${(e as Error).message}`))
        .finally(() => {
          this.#sending = false;
          this.#schedule();
        });
    });
  }
}

function instrument(client: pg.PoolClient | pg.Client, writes: TableWrites, notifier: Notifier): void {
  const query = client.query.bind(client) as QueryFn;
  const committed = (tables: readonly string[]) => {
    writes.bumpAll(tables);
    notifier.committed(tables);
  };
  let inTransaction = false;
  const pending = new Set<string>();
  (client as { query: QueryFn }).query = (...args: unknown[]) => {
    const first = args[0] as { text?: unknown } | string | undefined;
    const text = typeof first === 'string' ? first : first?.text;
    // Callback style and submittables (cursors) are not ours to reshape: counted, passed through.
    if (typeof text !== 'string' || typeof first !== 'string' || typeof args[args.length - 1] === 'function') {
      if (typeof text === 'string') writes.bumpAll(writtenTables(text));
      return query(...args);
    }
    const head = text.trimStart().slice(0, 10).toLowerCase();
    if (head.startsWith('begin') || head.startsWith('start tran')) {
      inTransaction = true;
      pending.clear();
      return query(...args);
    }
    if (head.startsWith('commit') || head.startsWith('end')) {
      inTransaction = false;
      if (!pending.size) return query(...args);
      const tables = [...pending];
      pending.clear();
      return (async () => {
        try {
          return await (query(...args) as Promise<unknown>);
        } finally {
          committed(tables);
        }
      })();
    }
    if (head.startsWith('rollback')) {
      inTransaction = false;
      pending.clear();
      return query(...args);
    }
    const tables = writtenTables(text);
    if (!tables.length) return query(...args);
    writes.bumpAll(tables);
    if (inTransaction) {
      for (const t of tables) pending.add(t);
      return query(...args);
    }
    return (async () => {
      try {
        return await (query(...args) as Promise<unknown>);
      } finally {
        committed(tables);
      }
    })();
  };
}

export function watchPostgresWrites(pools: pg.Pool[], connectionString: string): { writes: TableWrites; close(): Promise<void> } {
  const me = crypto.randomUUID();
  let epoch = 0;
  const writes = new TableWrites(() => epoch);
  writes.trusted = false;
  let closed = false;
  let listener: pg.Client | undefined;
  // Sent on the listening connection (idle otherwise); through the pool while it is down.
  const notifier = new Notifier(me, async (payload) => {
    if (!closed) await (listener ?? pools[0]).query('select pg_notify($1, $2)', [WRITES_CHANNEL, payload]);
  });
  for (const pool of pools) pool.on('connect', (client) => instrument(client, writes, notifier));

  let timer: NodeJS.Timeout | undefined;
  const lost = () => {
    writes.trusted = false;
    listener = undefined;
    if (!closed && !timer) timer = setTimeout(() => { timer = undefined; void listen(); }, RECONNECT_MS);
  };
  const listen = async () => {
    const c = new pg.Client({ connectionString });
    c.on('notification', (n) => {
      const payload = n.payload ?? '';
      const bar = payload.indexOf('|');
      if (bar < 0 || payload.slice(0, bar) === me) return;
      writes.bumpAll(payload.slice(bar + 1).split(',').filter(Boolean));
    });
    c.on('error', () => { if (listener === c) lost(); });
    c.on('end', () => { if (listener === c) lost(); });
    try {
      await c.connect();
      await c.query(`listen ${WRITES_CHANNEL}`);
    } catch {
      await c.end().catch(() => undefined);
      lost();
      return;
    }
    if (closed) { await c.end().catch(() => undefined); return; }
    listener = c;
    epoch++;
    writes.trusted = true;
  };
  const started = listen();
  return {
    writes,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await started;
      const c = listener;
      listener = undefined;
      writes.trusted = false;
      await c?.end().catch(() => undefined);
    },
  };
}
