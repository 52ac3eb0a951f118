// The server process: `npm run serve` (the compiled release, dist/current/server/main.js), `npm start`
// (build when stale, then serve) and `npm run dev:server` (from the sources through tsx).
//
// Settings are checked first (config.ts, preflight.ts): a bad one stops the process with one line and
// exit code 1 before anything is written. WORKERS=N forks N processes behind the one port (node:cluster);
// each migrates under the start-up lock, so the first does the work and the others find it done.
// SIGTERM/SIGINT stop gracefully: no new connections, requests in flight finish (SHUTDOWN_TIMEOUT), the
// database closes, exit 0.
import './test-clock-hook.ts'; // first: a test run's clock, before anything reads the time
import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { loadConfig, type ServerConfig } from './config.ts';
import { ConfigError, preflight } from './preflight.ts';
import { createServer } from './server.ts';

function die(message: string): never {
  console.error(message);
  process.exit(1);
}

function readConfig(): ServerConfig {
  try {
    const config = loadConfig();
    // the production entry logs requests unless told otherwise (in-process servers do not: config.ts)
    config.logLevel ??= 'info';
    return config;
  } catch (e) {
    return die(`配置错误：${(e as Error).message}`);
  }
}

function banner(config: ServerConfig, address: string, dialect: string, seeded: boolean): void {
  const shown = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
  console.log(`贸易后台已启动：${shown}${config.workers > 1 ? `（${config.workers} 个进程）` : ''}`);
  console.log(`数据库：${dialect === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `SQLite ${config.dataDir}/app.sqlite`}`);
  // the demo passwords only when this start created them: the log of a company's server carries none
  if (seeded) console.log('演示账号（密码均为 demo123）：公司 demo — admin（全部权限）、clerk（采购）、sales（销售）、store（仓管）、finance（会计）；公司 demo2 — admin');
}

/** One serving process: the only one, or a cluster worker. */
async function serve(config: ServerConfig): Promise<void> {
  const server = await createServer(config, { demoWalk: true });
  let address: string;
  try {
    address = await server.app.listen({ port: config.port, host: config.host });
  } catch (e) {
    await server.close();
    const code = (e as NodeJS.ErrnoException).code;
    throw new ConfigError(code === 'EADDRINUSE' ? `PORT ${config.port} 已被占用（HOST ${config.host}）` : `PORT ${config.port} 无法监听：${code ?? (e as Error).message}`);
  }
  if (cluster.isPrimary) banner(config, address, server.database.dialect, server.seeded);
  else process.send?.({ type: 'listening', address, dialect: server.database.dialect, seeded: server.seeded });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info({ signal }, 'stopping');
    // a stop that hangs past its bound (a stuck connection) still ends, but says so by its exit code
    setTimeout(() => {
      console.error(`停止超时（SHUTDOWN_TIMEOUT ${config.shutdownTimeoutSec} 秒）：强制退出`);
      process.exit(1);
    }, (config.shutdownTimeoutSec + config.shutdownDrainMs / 1000 + 5) * 1000).unref();
    // readiness fails and new requests get 503 at once; the port stays open for the drain so that a
    // request on an open connection is answered (503, connection closed) instead of reset
    server.beginStop();
    if (config.shutdownDrainMs > 0) await new Promise((r) => setTimeout(r, config.shutdownDrainMs));
    await server.close();
    server.app.log.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // a worker whose primary went away (killed with -9) stops too
  if (cluster.isWorker) process.on('disconnect', () => void stop('disconnect'));
}

/** The cluster primary: owns the port, forks the workers, replaces one that dies, stops them all on a signal. */
function supervise(config: ServerConfig): void {
  // workers run this very file (the real path of this release), never what dist/current points at later
  cluster.setupPrimary({ exec: fileURLToPath(import.meta.url) });
  let stopping = false;
  let listening = 0;
  let seeded = false;
  const fork = () => {
    const worker = cluster.fork();
    worker.on('message', (m: { type?: string; address?: string; dialect?: string; seeded?: boolean }) => {
      if (m?.type !== 'listening') return;
      seeded ||= Boolean(m.seeded);
      if (++listening === config.workers) banner(config, m.address!, m.dialect!, seeded);
    });
  };
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    // one that never came up will not come up on a second try either (a bad setting, a failing migration)
    if (listening < config.workers) {
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
      die(`工作进程 ${worker.process.pid} 启动失败（退出码 ${code ?? signal}），服务未启动`);
    }
    console.error(`工作进程 ${worker.process.pid} 意外退出（${code ?? signal}），正在重启`);
    listening--;
    fork();
  });
  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    setTimeout(() => process.exit(1), (config.shutdownTimeoutSec + config.shutdownDrainMs / 1000 + 10) * 1000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  for (let i = 0; i < config.workers; i++) fork();
}

async function main(): Promise<void> {
  const config = readConfig();
  if (cluster.isPrimary) await preflight(config);
  if (cluster.isPrimary && config.workers > 1) supervise(config);
  else await serve(config);
}

main().catch((e) => {
  die(e instanceof ConfigError ? `配置错误：${e.message}` : `启动失败：${e instanceof Error ? e.message : String(e)}`);
});
