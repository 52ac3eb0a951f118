// Start-up checks of the settings that only the machine can judge (loadConfig checks their form): each
// failure is one line naming the setting, and nothing has been written when it is reported.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import type { ServerConfig } from './config.ts';

export class ConfigError extends Error {}

function checkDataDir(dir: string): void {
  // The folder is made if missing and must take a file: a probe file is written and removed (a
  // permission check alone passes for root on a read-only mount).
  const probe = path.join(dir, `.write-probe-${process.pid}`);
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'EACCES' || code === 'EPERM' ? '没有写入权限' : code === 'ENOTDIR' || code === 'EEXIST' ? '不是文件夹' : code === 'EROFS' ? '只读文件系统' : (code ?? (e as Error).message);
    throw new ConfigError(`DATA_DIR（${dir}）不可用：${why}`);
  }
  const db = path.join(dir, 'app.sqlite');
  if (fs.existsSync(db)) {
    try {
      fs.accessSync(db, fs.constants.R_OK | fs.constants.W_OK);
    } catch {
      throw new ConfigError(`DATA_DIR（${dir}）中的 app.sqlite 没有读写权限`);
    }
  }
}

async function checkDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  // an error event after connect() failed must not become an uncaught exception
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
  } catch (e) {
    // the message names host, user or database, never the password
    throw new ConfigError(`DATABASE_URL 无法连接：${(e as Error).message || (e as NodeJS.ErrnoException).code}`);
  } finally {
    await client.end().catch(() => {});
  }
}

async function checkPort(host: string, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (e: NodeJS.ErrnoException) => {
      reject(new ConfigError(e.code === 'EADDRINUSE' ? `PORT ${port} 已被占用（HOST ${host}）` : `PORT ${port}（HOST ${host}）无法监听：${e.code ?? e.message}`));
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** Runs in the process that owns the port (the cluster primary or the only process). */
export async function preflight(config: ServerConfig): Promise<void> {
  checkDataDir(config.dataDir);
  if (config.databaseUrl) await checkDatabase(config.databaseUrl);
  if (config.port !== 0) await checkPort(config.host, config.port);
}
