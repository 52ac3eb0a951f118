// `npm start`: serve API and the built client on one port.
import { loadConfig } from './config.ts';
import { createServer } from './server.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const server = await createServer(config, { demoWalk: true });
  const address = await server.app.listen({ port: config.port, host: config.host });
  const shown = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
  console.log(`贸易后台已启动：${shown}`);
  console.log(`数据库：${server.database.dialect === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `SQLite ${config.dataDir}/app.sqlite`}`);
  console.log('演示账号：公司 demo — admin / demo123（全部权限），clerk / demo123（部分采购权限）；公司 demo2 — admin / demo123');
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
