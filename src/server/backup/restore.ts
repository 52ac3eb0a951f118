// `npm run restore -- FILE` (scripts/restore.ts): a backup (backup.ts) into an EMPTY target — a DATA_DIR
// without app.sqlite, media or exports, or a PostgreSQL database without tables. It never merges into or
// overwrites live data: restoring over a company's data is done by restoring into a new database or
// folder and pointing the server at it.
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import type { ServerConfig } from '../config.ts';
import { BACKUP_FORMAT, DATA_FOLDERS, MANIFEST, run, type Manifest } from './backup.ts';
import { readTar } from './tar.ts';

async function postgresIsEmpty(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query(`select count(*)::int as n from information_schema.tables where table_schema = 'public'`);
    return r.rows[0].n === 0;
  } finally {
    await client.end();
  }
}

function folderIsEmpty(dir: string): boolean {
  return !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;
}

async function checkTargetEmpty(config: ServerConfig): Promise<void> {
  if (config.databaseUrl) {
    if (!(await postgresIsEmpty(config.databaseUrl))) throw new Error('DATABASE_URL 指向的数据库不是空的：请恢复到新建的空数据库（createdb）');
  } else if (fs.existsSync(path.join(config.dataDir, 'app.sqlite'))) {
    throw new Error(`DATA_DIR（${config.dataDir}）中已有 app.sqlite：请恢复到新的空数据文件夹`);
  }
  for (const folder of Object.keys(DATA_FOLDERS)) {
    if (!folderIsEmpty(path.join(config.dataDir, folder))) throw new Error(`DATA_DIR（${config.dataDir}）中的 ${folder}/ 不是空的：请恢复到新的空数据文件夹`);
  }
}

async function text(stream: Readable): Promise<string> {
  let s = '';
  for await (const chunk of stream) s += chunk;
  return s;
}

export async function restore(config: ServerConfig, file: string, log: (line: string) => void = () => {}): Promise<Manifest> {
  const source = path.resolve(file);
  if (!fs.existsSync(source)) throw new Error(`${source} 不存在`);
  await checkTargetEmpty(config);
  fs.mkdirSync(config.dataDir, { recursive: true });
  let manifest: Manifest | undefined;
  let restoredDb = false;
  let files = 0;
  const sqliteTemp = path.join(config.dataDir, `app.sqlite.restoring-${process.pid}`);
  try {
    await readTar(source, async (name, body) => {
      if (!manifest) {
        if (name !== MANIFEST) throw new Error(`${source} 不是本系统的备份（缺少 ${MANIFEST}）`);
        manifest = JSON.parse(await text(body)) as Manifest;
        if (manifest.format !== BACKUP_FORMAT || manifest.version !== 1) throw new Error(`${source} 不是本系统的备份，或版本不支持`);
        const target = config.databaseUrl ? 'postgres' : 'sqlite';
        if (manifest.dialect !== target) {
          throw new Error(`备份来自 ${manifest.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}，目标是 ${target === 'postgres' ? 'PostgreSQL（DATABASE_URL）' : 'SQLite（未设置 DATABASE_URL）'}：请用同一种数据库恢复`);
        }
        return;
      }
      if (name === 'database.pgdump') {
        log('pg_restore……');
        await run('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${config.databaseUrl}`], body);
        restoredDb = true;
      } else if (name === 'database.sqlite') {
        log(`SQLite → ${path.join(config.dataDir, 'app.sqlite')}`);
        await pipeline(body, fs.createWriteStream(sqliteTemp, { flags: 'wx' }));
        restoredDb = true;
      } else if (Object.keys(DATA_FOLDERS).includes(name.split('/')[0])) {
        const target = path.join(config.dataDir, ...name.split('/'));
        fs.mkdirSync(path.dirname(target), { recursive: true });
        await pipeline(body, fs.createWriteStream(target, { flags: 'wx' }));
        files++;
      } else {
        body.resume();
        await new Promise((r) => body.on('end', r));
      }
    });
    if (!manifest || !restoredDb) throw new Error(`${source} 不完整：缺少数据库`);
    // the database appears under its real name only once it is whole
    if (fs.existsSync(sqliteTemp)) fs.renameSync(sqliteTemp, path.join(config.dataDir, 'app.sqlite'));
    log(`文件 ${files} 个`);
    return { ...manifest, files };
  } finally {
    fs.rmSync(sqliteTemp, { force: true });
  }
}
