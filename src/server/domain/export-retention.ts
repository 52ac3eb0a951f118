// Retention of the export centre's files: a finished job (done or failed) and its file under
// DATA_DIR/exports/<company>/ are removed once they are older than EXPORT_RETENTION_DAYS (default 7;
// 0 keeps them until the user deletes them). The sweep runs when the server starts and then hourly, in
// every server process: each removal is a conditional delete of the job row first, so two processes
// sweeping at once remove a job once, and the file goes only after its row. Files no job names any more
// (a process that died between writing and recording, a half-written .part) go by the same age.
import fs from 'node:fs';
import path from 'node:path';
import type { DB } from '../db/connection.ts';
import { typed } from '../db/typed.ts';

const DAY_MS = 24 * 3600 * 1000;
export const SWEEP_INTERVAL_MS = 3600 * 1000;
/** Finished statuses: a queued or running job is never swept (its process still owns it). */
const FINISHED = ['done', 'failed'];

/** When a job finished at `finishedAt` is swept (null: it is not finished, or files are kept). */
export function expiresAt(finishedAt: unknown, days: number): string | null {
  if (!days || finishedAt === null || finishedAt === undefined) return null;
  const t = Date.parse(String(finishedAt));
  return Number.isFinite(t) ? new Date(t + days * DAY_MS).toISOString() : null;
}

export interface SweepResult {
  jobs: number;
  files: number;
}

/** Removes finished jobs older than `days` and their files, then unnamed files as old. */
export async function sweepExports(untypedDb: DB, dataDir: string, days: number, now = Date.now()): Promise<SweepResult> {
  const db = typed(untypedDb);
  const out: SweepResult = { jobs: 0, files: 0 };
  if (!days) return out;
  const cutoff = new Date(now - days * DAY_MS).toISOString();
  const root = path.join(dataDir, 'exports');
  for (;;) {
    const old = await db.selectFrom('exportJob').select(['id', 'companyId', 'storedName'])
      .where('status', 'in', FINISHED).where('finishedAt', '<', cutoff).orderBy('id').limit(500).execute();
    for (const job of old) {
      const gone = await db.deleteFrom('exportJob').where('id', '=', Number(job.id)).where('status', 'in', FINISHED).where('finishedAt', '<', cutoff).executeTakeFirst();
      if (Number(gone.numDeletedRows) !== 1) continue;
      out.jobs++;
      if (job.storedName && await removeFile(path.join(root, String(Number(job.companyId)), path.basename(String(job.storedName))))) out.files++;
    }
    if (old.length < 500) break;
  }
  out.files += await sweepUnnamed(untypedDb, root, now - days * DAY_MS);
  return out;
}

async function removeFile(file: string): Promise<boolean> {
  try {
    await fs.promises.rm(file);
    return true;
  } catch {
    return false; // already gone
  }
}

/** Files under exports/<company>/ older than the cutoff that no job names. */
async function sweepUnnamed(untypedDb: DB, root: string, cutoffMs: number): Promise<number> {
  const db = typed(untypedDb);
  let removed = 0;
  let companies: fs.Dirent[];
  try {
    companies = await fs.promises.readdir(root, { withFileTypes: true });
  } catch {
    return 0; // no export yet
  }
  for (const dir of companies) {
    if (!dir.isDirectory() || !/^\d+$/.test(dir.name)) continue;
    const folder = path.join(root, dir.name);
    const old: string[] = [];
    for (const name of await fs.promises.readdir(folder).catch(() => [] as string[])) {
      const stat = await fs.promises.stat(path.join(folder, name)).catch(() => null);
      if (stat?.isFile() && stat.mtimeMs < cutoffMs) old.push(name);
    }
    for (let i = 0; i < old.length; i += 500) {
      const chunk = old.slice(i, i + 500);
      const named = new Set((await db.selectFrom('exportJob').select('storedName').where('companyId', '=', Number(dir.name)).where('storedName', 'in', chunk).execute())
        .map((r) => String(r.storedName)));
      for (const name of chunk) if (!named.has(name) && await removeFile(path.join(folder, name))) removed++;
    }
  }
  return removed;
}

/** The sweep at start-up and then every hour, until stopped (stopping waits for a sweep under way). */
export function startExportSweep(db: DB, dataDir: string, days: number, intervalMs = SWEEP_INTERVAL_MS): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const run = () => {
    if (stopped) return;
    running = sweepExports(db, dataDir, days).catch((e) => console.error('[export sweep]', e));
  };
  if (!days) return { stop: async () => undefined };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref?.();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
