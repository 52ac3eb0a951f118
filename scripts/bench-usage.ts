// `node --import tsx scripts/bench-usage.ts`: what counting API calls into the per-minute aggregate (接口分析,
// domain/system/monitor.ts) costs: CPU per cached list call (cdm 010201, 50 rows) with API_USAGE off and
// on, alternately three times, in-process (app.inject: no network, so the hooks are a larger share).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/server/config.ts';
import { createServer } from '../src/server/server.ts';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'usage-bench-'));
const N = Number(process.env.N ?? 3000);
async function run(usage: boolean) {
  const config = loadConfig({ ...process.env, DATA_DIR: dir, DATABASE_URL: '', API_USAGE: usage ? 'on' : 'off', CLIENT_DIR: path.join(dir, 'none') });
  const s = await createServer(config, { seed: true });
  const login = await s.app.inject({ method: 'POST', url: '/auth/public/990103', payload: { type: 0, companyCode: 'demo', userName: 'admin', password: 'demo123' } });
  const token = (login.json() as { data: { accessToken: string } }).data.accessToken;
  const call = () => s.app.inject({ method: 'POST', url: '/cdm/api/010201', headers: { token }, payload: { page: 1, pageSize: 50 } });
  for (let i = 0; i < 300; i++) await call();
  const c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await call();
  const c = process.cpuUsage(c0);
  await s.close();
  return (c.user + c.system) / N;
}
for (let r = 0; r < 3; r++) {
  const off = await run(false);
  const on = await run(true);
  console.log(`run ${r}: off ${off.toFixed(0)} µs, on ${on.toFixed(0)} µs per call (${(((on - off) / off) * 100).toFixed(1)} %)`);
}
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
