// Background WAL checkpoints for the server's SQLite database.
//
// SQLite's own (automatic) checkpoint runs inside the commit that pushes the log past 1,000 pages: that
// commit copies every logged page into the database file and syncs both files, on the thread that
// serves requests. Measured on 50-line receiving notes and putaways (npm run bench:stock), that was
// ~0.4 ms of every commit's ~0.9 ms. Here a worker thread with its own connection copies the log every
// `intervalMs`, on the other core (PASSIVE: it never blocks the writer or readers). That alone cannot
// finish the job while the server keeps committing — every round ends behind the latest commit, and
// SQLite starts the log over only when every frame is back in the file — so the server's connection
// still checkpoints, but only once the log is `SERVER_CHECKPOINT_PAGES` long, and then finds all but the
// last few frames already copied. That checkpoint still syncs both files on the serving thread (~13 ms
// under load), so it should be rare: at 4,000 pages it came 7 times a second while 50-line receiving
// notes and putaways were posted (~150 pages per pair), and receiving + putaway ran at 192–197 pairs/s;
// at 16,000 pages (a 64 MB log at most) 214/s (npm run bench:stock -- --units-only --wal-autocheckpoint N,
// alternating, two runs each; 32,000 gave 213–222). Should the worker stop, the server's connection goes
// back to SQLite's default.
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** SQLite's default, restored when the worker is gone. */
const AUTO_CHECKPOINT_PAGES = 1000;
/** Log pages at which the server's own connection checkpoints while the worker runs. */
export const SERVER_CHECKPOINT_PAGES = 16_000;

export interface Checkpointer {
  /** Stops the worker after a last checkpoint; call before closing the server's connection. */
  close(): Promise<void>;
  /** Rounds that copied pages (for tests and benchmarks). */
  readonly rounds: number;
}

export function startCheckpointer(sqlite: SQLite.Database, file: string, intervalMs = 50, serverPages = SERVER_CHECKPOINT_PAGES): Checkpointer {
  sqlite.pragma(`wal_autocheckpoint = ${serverPages}`);
  const worker = new Worker(new URL('./checkpoint-worker.mjs', import.meta.url), {
    workerData: { file, intervalMs },
    // The worker is plain JavaScript: no TypeScript loader in it.
    execArgv: [],
  });
  // The server may exit without closing the database (a crash test kills it): never keep it alive.
  worker.unref();
  let rounds = 0;
  let closing = false;
  const fallBack = () => {
    if (!closing && sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
  };
  worker.on('message', (m: { type: string; checkpointed?: number; message?: string }) => {
    if (m.type === 'checkpointed' && (m.checkpointed ?? 0) > 0) rounds++;
    else if (m.type === 'error') console.error(`[checkpoint] ${m.message}`);
  });
  worker.on('error', (e) => {
    console.error(`[checkpoint] worker failed: ${e.message}`);
    fallBack();
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => { fallBack(); resolve(); }));
  return {
    get rounds() { return rounds; },
    async close() {
      closing = true;
      worker.postMessage('close');
      // A worker stuck in a checkpoint still lets the server stop.
      const timeout = setTimeout(() => void worker.terminate(), 5000);
      await exited;
      clearTimeout(timeout);
    },
  };
}
