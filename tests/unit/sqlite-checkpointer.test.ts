// The server's SQLite write-ahead log is copied back into the database file by a worker thread
// (src/server/db/checkpointer.ts): written data reaches the file without the server's connection
// checkpointing, the log stays bounded while commits go on, and closing stops the worker.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVER_CHECKPOINT_PAGES } from '../../src/server/db/checkpointer.ts';
import { openDatabase, type Database } from '../../src/server/db/connection.ts';

const PAGE = 4096;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'tbo-ckpt-'));
  dirs.push(d);
  return d;
}

/** ~`pages` pages of rows, one transaction per 20 rows (as many commits as postings would make). */
async function write(database: Database, pages: number): Promise<void> {
  const filler = 'x'.repeat(PAGE - 200);
  for (let i = 0; i < pages; i += 20) {
    await database.db.transaction().execute(async (trx) => {
      for (let j = 0; j < 20; j++) await sql`insert into t (body) values (${filler})`.execute(trx);
    });
  }
}

const walPages = (dir: string) => {
  const f = path.join(dir, 'app.sqlite-wal');
  return fs.existsSync(f) ? Math.round(fs.statSync(f).size / (PAGE + 24)) : 0;
};

async function until(ok: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (ok()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return ok();
}

describe('background WAL checkpoints (SQLite)', () => {
  it('copies committed pages into the database file while the server connection does not', async () => {
    const dir = tempDir();
    const database = openDatabase({ dataDir: dir, backgroundCheckpoint: true });
    try {
      await sql`create table t (id integer primary key, body text)`.execute(database.db);
      // 1,000 pages: below the pages at which the server's own connection would checkpoint.
      await write(database, 1000);
      // The database file alone (copied without its log) holds every row.
      const copy = tempDir();
      const rowsInFileAlone = () => {
        fs.copyFileSync(path.join(dir, 'app.sqlite'), path.join(copy, 'alone.sqlite'));
        const reader = new SQLite(path.join(copy, 'alone.sqlite'));
        try {
          return (reader.prepare('select count(*) as n from t').get() as { n: number }).n;
        } catch {
          return -1;
        } finally {
          reader.close();
        }
      };
      expect(await until(() => rowsInFileAlone() === 1000)).toBe(true);
    } finally {
      await database.close();
    }
  });

  it('keeps the log bounded while commits go on, and stops with the database', async () => {
    const dir = tempDir();
    const database = openDatabase({ dataDir: dir, backgroundCheckpoint: true });
    await sql`create table t (id integer primary key, body text)`.execute(database.db);
    const pages = SERVER_CHECKPOINT_PAGES * 3;
    await write(database, pages);
    // Without any checkpoint the log would hold every page written.
    expect(walPages(dir)).toBeLessThan(SERVER_CHECKPOINT_PAGES * 1.5);
    await database.close();
    // The last connection to close folds the log into the file and removes it: the worker is gone too.
    expect(fs.existsSync(path.join(dir, 'app.sqlite-wal'))).toBe(false);
    const check = new SQLite(path.join(dir, 'app.sqlite'));
    try {
      expect((check.prepare('select count(*) as n from t').get() as { n: number }).n).toBe(pages);
    } finally {
      check.close();
    }
  });
});
