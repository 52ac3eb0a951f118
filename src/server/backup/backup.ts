// `npm run backup -- FILE` (scripts/backup.ts): one .tar with the database and the files of DATA_DIR,
// taken while the server runs and takes postings.
//   backup.json       what it is: format, dialect, time, migrations applied
//   database.sqlite   SQLite through its online backup API (a consistent copy; writers are not stopped)
//   database.pgdump   PostgreSQL through `pg_dump --format=custom` (one snapshot transaction)
//   media/…           uploaded originals (scaled copies in media/cache are remade on demand)
//   exports/…         finished export files their jobs still list
// The database is copied first and the files after it: a file uploaded in between is extra, never missing.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { ServerConfig } from '../config.ts';
import { TarWriter } from './tar.ts';

export const BACKUP_FORMAT = 'trade-backoffice-backup';
export const MANIFEST = 'backup.json';
/** Folders of DATA_DIR that belong to the data, and what inside them is only a cache. */
export const DATA_FOLDERS: Record<string, string[]> = { media: ['cache', 'tmp'], exports: [] };

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  version: 1;
  dialect: 'sqlite' | 'postgres';
  createdAt: string;
  migrations: string[];
  files: number;
}

export function run(cmd: string, args: string[], stdin?: NodeJS.ReadableStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: [stdin ? 'pipe' : 'ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    child.on('error', (e) => reject(new Error(`${cmd} 无法运行：${e.message}（需要 PostgreSQL 客户端工具，与服务器同一主版本）`)));
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} 失败（${code}）：${err.trim().split('\n').slice(-3).join(' ')}`))));
    if (stdin) stdin.pipe(child.stdin!);
  });
}

async function sqliteCopy(dataDir: string, target: string): Promise<string[]> {
  const file = path.join(dataDir, 'app.sqlite');
  if (!fs.existsSync(file)) throw new Error(`${file} 不存在：DATA_DIR 指向的不是数据文件夹`);
  const source = new SQLite(file, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 10000');
    // After the first step everything left goes in one step: with another process writing, SQLite
    // restarts a backup whose source changed between steps, which small steps would never finish.
    await source.backup(target, { progress: () => 2 ** 30 });
  } finally {
    source.close();
  }
  const copy = new SQLite(target, { readonly: true });
  try {
    return (copy.prepare('select name from schema_migration order by name').all() as { name: string }[]).map((r) => r.name);
  } finally {
    copy.close();
  }
}

async function postgresMigrations(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ name: string }>('select name from schema_migration order by name')).rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

function dataFiles(dataDir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string, skip: string[]) => {
    const abs = path.join(dataDir, rel);
    if (!fs.existsSync(abs)) return;
    for (const d of fs.readdirSync(abs, { withFileTypes: true })) {
      const child = path.posix.join(rel, d.name);
      if (d.isDirectory() && !skip.includes(d.name)) walk(child, []);
      else if (d.isFile()) out.push(child);
    }
  };
  for (const [folder, skip] of Object.entries(DATA_FOLDERS)) walk(folder, skip);
  return out.sort();
}

export async function backup(config: ServerConfig, file: string, log: (line: string) => void = () => {}): Promise<Manifest> {
  const target = path.resolve(file);
  if (fs.existsSync(target)) throw new Error(`${target} 已存在：备份不覆盖已有文件`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tbo-backup-'));
  const partial = `${target}.partial-${process.pid}`;
  try {
    const dialect = config.databaseUrl ? 'postgres' : 'sqlite';
    const dbFile = path.join(work, dialect === 'postgres' ? 'database.pgdump' : 'database.sqlite');
    let migrations: string[];
    if (dialect === 'postgres') {
      log('pg_dump（custom 格式）……');
      migrations = await postgresMigrations(config.databaseUrl!);
      await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${dbFile}`, `--dbname=${config.databaseUrl}`]);
    } else {
      log(`SQLite 在线备份：${path.join(config.dataDir, 'app.sqlite')}……`);
      migrations = await sqliteCopy(config.dataDir, dbFile);
    }
    const files = dataFiles(config.dataDir);
    const manifest: Manifest = { format: BACKUP_FORMAT, version: 1, dialect, createdAt: new Date().toISOString(), migrations, files: files.length };
    const tar = new TarWriter(partial);
    await tar.addText(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
    await tar.addFile(path.basename(dbFile), dbFile);
    let added = 0;
    for (const rel of files) {
      // a file the server removed meanwhile (an expired export) is simply not in this backup
      if (!fs.existsSync(path.join(config.dataDir, rel))) continue;
      await tar.addFile(rel, path.join(config.dataDir, rel));
      added++;
    }
    await tar.close();
    fs.renameSync(partial, target);
    log(`文件 ${added} 个`);
    return { ...manifest, files: added };
  } catch (e) {
    fs.rmSync(partial, { force: true });
    throw e;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
