// Statements that must not wait for the caller's transaction to end: on PostgreSQL, a document number
// taken inside the document's transaction keeps the company's sequence row locked until that transaction
// commits, so every other document of the same kind waits for it (measured: 50-line receiving notes and
// putaways from 8 connections spent most of their time waiting for the sequence row — 21 pairs/s against
// 82 adjustments/s). Such statements run instead on a connection of their own, each committing at once.
// SQLite has one writer at a time anyway: there they stay in the caller's transaction.
import type { DB } from './connection.ts';

/** transaction → the database it was opened on */
const roots = new WeakMap<object, DB>();
/** database → its own small pool for autonomous statements (PostgreSQL only) */
const autonomousPools = new WeakMap<object, DB>();

export function registerAutonomous(root: DB, autonomous: DB): void {
  autonomousPools.set(root, autonomous);
}

/** Called by the transaction runner for every transaction it opens. */
export function rememberRoot(trx: DB, root: DB): void {
  roots.set(trx, root);
}

/**
 * Where a statement that should commit on its own goes when `db` is a transaction of a database with
 * such a pool; undefined otherwise (run it in `db`).
 */
export function autonomousFor(db: DB): DB | undefined {
  const root = roots.get(db);
  return root ? autonomousPools.get(root) : autonomousPools.get(db);
}
