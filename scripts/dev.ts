// `npm run dev`: development mode. The API server runs under `node --watch` (restarted when anything
// under src/server, src/core or schemas/ changes: a new endpoint, resource or screen right is known at
// once) and Vite's dev server serves the client with hot reload, proxying the API calls to it. Screen
// files are imported by the client through import.meta.glob, so a new or edited schemas/screens file
// shows in the open browser without a rebuild or restart.
//
//   PORT (default 5173)      the address to open: Vite, the client with hot reload
//   API_PORT (default 8080)  the API server behind it (vite.config.ts proxies /auth /cdm /oms /storage /api)
import { spawn } from 'node:child_process';
import { createServer } from 'vite';

const apiPort = Number(process.env.API_PORT ?? 8080);
const port = Number(process.env.PORT ?? 5173);

const api = spawn(
  process.execPath,
  ['--watch-path=src/server', '--watch-path=src/core', '--watch-path=schemas', '--import', 'tsx', 'src/server/main.ts'],
  // readable request lines in development (pino-pretty, a dev dependency); LOG_FORMAT=json to see the real ones
  { stdio: 'inherit', env: { LOG_FORMAT: 'pretty', ...process.env, PORT: String(apiPort), API_PORT: String(apiPort) } },
);

const vite = await createServer({ configFile: 'vite.config.ts', server: { port, strictPort: true, host: process.env.HOST ?? 'localhost' } });
await vite.listen();
vite.printUrls();
console.log(`开发模式：打开上面的地址；接口服务在 ${apiPort} 端口（修改 src/server、src/core、schemas 后自动重启），页面修改即时生效`);

const stop = async () => {
  api.kill('SIGTERM');
  await vite.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
api.on('exit', (code, signal) => {
  if (signal === null && code !== null && code !== 0) console.error(`接口服务退出（${code}）；修改代码后会自动重启`);
});
