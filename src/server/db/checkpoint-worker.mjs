// Runs in a worker thread (plain JavaScript: it is loaded without the TypeScript loader). Copies the
// SQLite write-ahead log back into the database file with its own connection, so that the server's
// thread rarely has to. See checkpointer.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const SQLite = require('better-sqlite3');

const { file, intervalMs } = workerData;
const db = new SQLite(file, { fileMustExist: true });
// The same durability as the server's connection: the log is synced before pages are copied, the file
// after.
db.pragma('synchronous = NORMAL');
// This connection never writes; a checkpoint by it is only ever the explicit one below.
db.pragma('wal_autocheckpoint = 0');
// PASSIVE: copies what it can without waiting for the writer or readers (and without blocking them);
// another process's checkpointer at work makes it report busy, which is fine.
const checkpoint = db.prepare('pragma wal_checkpoint(PASSIVE)');

let timer;
function run() {
  try {
    const r = checkpoint.get();
    parentPort.postMessage({ type: 'checkpointed', log: r.log, checkpointed: r.checkpointed });
  } catch (e) {
    parentPort.postMessage({ type: 'error', message: e instanceof Error ? e.message : String(e) });
  }
  timer = setTimeout(run, intervalMs);
}
timer = setTimeout(run, intervalMs);

parentPort.on('message', (m) => {
  if (m === 'close') {
    clearTimeout(timer);
    db.close();
    parentPort.close();
  }
});
