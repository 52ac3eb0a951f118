// Issue 33 item 1: the suite does not read the real calendar. The run declares its clock
// (tests/support/clock-shift.ts); this test process, a server in it and a server started as another
// process all agree on "today" — the declared day, whatever day the machine thinks it is (faketime).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TEST_CLOCK } from '../support/clock-shift.ts';
import { loginAt, post, spawnServer, type SpawnedServer } from '../support/spawn-server.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

const declared = Date.parse(process.env.TEST_CLOCK || DEFAULT_TEST_CLOCK);
/** The declared day in company time (the demo company is UTC+8). */
const declaredDay = new Date(declared + 8 * 3600_000).toISOString().slice(0, 10);

let t: TestServer;
let other: SpawnedServer;
beforeAll(async () => {
  t = await startTestServer();
  other = await spawnServer({ DATA_DIR: t.config.dataDir, DATABASE_URL: t.config.databaseUrl ?? '', CLIENT_DIR: '/nonexistent' });
});
afterAll(async () => {
  await other?.stop();
  await t?.close();
});

describe('the run’s clock', () => {
  it('is the declared instant in this process, moving forward from it in real time', async () => {
    const a = Date.now();
    const real = performance.now();
    expect(Math.abs(a - declared)).toBeLessThan(6 * 3600_000); // a whole suite runs in well under six hours
    await t.login(); // some real work, no sleep: the clock moves as the monotonic one does
    expect(Math.abs(Date.now() - a - (performance.now() - real))).toBeLessThan(50);
    expect(new Date(0) instanceof Date).toBe(true);
  });

  it('gives a server in this process and one in another process the same today', async () => {
    const token = await t.login();
    const here = await ok(t.call('oms', '026201', { partyType: 'client', page: 1, pageSize: 1 }, token));
    expect(here.today).toBe(declaredDay);
    const r = await post(`${other.url}/oms/api/026201`, { partyType: 'client', page: 1, pageSize: 1 }, await loginAt(other.url));
    expect(r.code).toBe('200');
    expect(r.data.today).toBe(declaredDay);
  });
});
