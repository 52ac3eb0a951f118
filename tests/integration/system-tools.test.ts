// System tools (issue 17): 服务监控 (heartbeat rows of every process sharing the database), 接口分析 (the
// per-minute aggregate: counts equal the calls made), 数据校验 runs kept with their differences, rights.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import sharp from 'sharp';
import { multipart } from '../fixtures/spreadsheets.ts';
import { sweepUsage } from '../../src/server/domain/system/monitor.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

const SYS = { processes: '019501', usage: '019502', verify: '019401', runs: '019503', run: '019504', tryList: '019803', tryDescribe: '019804' };

let t: TestServer;
let admin: string;
let clerk: string;
let admin2: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  clerk = await t.login('demo', 'clerk');
  admin2 = await t.login('demo2');
});
afterAll(async () => {
  await t?.close();
});

describe('rights', () => {
  it('a clerk without the rights is refused every system tool', async () => {
    for (const code of Object.values(SYS)) {
      const r = await t.call('cdm', code, code === SYS.run ? { id: 'x' } : code === SYS.tryDescribe ? { api: 'cdm:019401' } : {}, clerk);
      expect(r.code, code).toBe('COMMON_NO_RIGHT_4003');
    }
  });
});

describe('installation-wide tools (endpoints marked instance)', () => {
  const INSTANCE = { '019501': {}, '019805': {}, '019811': {} } as const;
  const ROLE_SAVE = '013303';
  const ROLE_LIST = '013301';
  const rightsOf = async (token: string, on = t) => (await ok(on.call('auth', '990104', {}, token))).functionRights as string[];
  const offered = async (token: string) => ((await ok(t.call('cdm', '013308', {}, token))) as Array<{ code: string }>).map((r) => r.code);

  it('answer only the company that runs the installation: another company\'s administrator is refused and never holds or is offered their rights', async () => {
    for (const [code, body] of Object.entries(INSTANCE)) {
      expect((await t.call('cdm', code, body, admin2)).code, code).toBe('COMMON_NO_RIGHT_4003');
    }
    // demo was created first: it runs the installation (OPERATOR_COMPANIES unset)
    expect((await ok(t.call('cdm', '019501', {}, admin))).list.length).toBeGreaterThanOrEqual(1);
    const held = await rightsOf(admin);
    const held2 = await rightsOf(admin2);
    for (const right of ['system.serviceMonitoring', 'system.diffStructure', 'system.storageCheck.repair']) {
      expect(held, right).toContain(right);
      expect(held2, right).not.toContain(right);
      expect(await offered(admin2), right).not.toContain(right);
    }
    // the company's own tools stay: its file check, its API usage
    expect(held2).toEqual(expect.arrayContaining(['system.storageCheck', 'system.analysis', 'system.verification']));
    expect(await offered(admin)).toContain('system.serviceMonitoring');
  });

  it('the role editor refuses an installation-wide right in a role of another company, and saves nothing (issue 33 item 6)', async () => {
    const role = await t.call('cdm', ROLE_SAVE, { name: '偷偷运维', rights: ['system.analysis', 'system.serviceMonitoring'] }, admin2);
    expect(role.code).toBe('COMMON_VALIDATION_4000');
    expect(role.msg).toContain('system.serviceMonitoring');
    expect(role.msg).toContain('运营方公司');
    const roles = await ok(t.call('cdm', ROLE_LIST, { page: 1, pageSize: 100 }, admin2));
    expect(roles.list.map((r: { name: string }) => r.name)).not.toContain('偷偷运维');
    // the operator company's own roles may hold them
    expect((await t.call('cdm', ROLE_SAVE, { name: '运维', rights: ['system.serviceMonitoring'] }, admin)).code).toBe('200');
  });

  it('OPERATOR_COMPANIES names the companies that run it instead', async () => {
    const other = await startTestServer({ OPERATOR_COMPANIES: ' demo2 , nobody ' }, { dataDir: t.config.dataDir, databaseUrl: t.config.databaseUrl || undefined });
    try {
      const demo = await other.login();
      const demo2 = await other.login('demo2');
      expect((await other.call('cdm', '019501', {}, demo)).code).toBe('COMMON_NO_RIGHT_4003');
      expect((await ok(other.call('cdm', '019501', {}, demo2))).list.length).toBeGreaterThanOrEqual(1);
      expect(await rightsOf(demo, other)).not.toContain('system.serviceMonitoring');
      expect(await rightsOf(demo2, other)).toContain('system.serviceMonitoring');
    } finally {
      await other.close();
    }
  });
});

describe('接口分析 (019502)', () => {
  it('counts each call once per endpoint, account and answer code, with latencies, for the caller company only', async () => {
    const calls = async (token: string, body: Record<string, unknown>) => {
      const r = await ok(t.call('cdm', SYS.usage, body, token));
      return Object.fromEntries(r.list.map((x: any) => [x.key === 'cdm:019503' || body.groupBy !== 'endpoint' ? x.label : x.key, x]));
    };
    const before = (await calls(admin, { groupBy: 'endpoint', pageSize: 100 }))['数据校验记录'] ?? { calls: 0, failed: 0 };
    const beforeByAccount = await calls(admin, { groupBy: 'account', filters: { endpoint: '019503' } });
    for (let i = 0; i < 3; i++) await ok(t.call('cdm', SYS.runs, {}, admin));
    // two refused calls of the clerk (no right) and one list call of the other company
    for (let i = 0; i < 2; i++) await t.call('cdm', SYS.runs, {}, clerk);
    await ok(t.call('cdm', SYS.runs, {}, admin2));
    const row = (await calls(admin, { groupBy: 'endpoint', pageSize: 100 }))['数据校验记录'];
    expect(row.calls - before.calls).toBe(5);
    expect(row.failed - before.failed).toBe(2);
    expect(row.codes).toBe(`COMMON_NO_RIGHT_4003×${row.failed}`);
    expect(row.p50).toBeGreaterThanOrEqual(0);
    expect(row.p99).toBeGreaterThanOrEqual(row.p50);
    expect(row.maxMs).toBeGreaterThanOrEqual(row.p99);

    const byAccount = await calls(admin, { groupBy: 'account', filters: { endpoint: '019503' } });
    expect(byAccount.admin.calls - (beforeByAccount.admin?.calls ?? 0)).toBe(3);
    expect(byAccount.clerk.calls - (beforeByAccount.clerk?.calls ?? 0)).toBe(2);
    expect(byAccount.clerk.failed).toBe(byAccount.clerk.calls);

    // the other company sees its own call only
    const other = await ok(t.call('cdm', SYS.usage, { groupBy: 'endpoint', filters: { endpoint: '019503' } }, admin2));
    expect(other.list.map((r: any) => [r.key, r.calls])).toEqual([['cdm:019503', 1]]);

    // by day: one row for today with every call of the company so far
    const byDay = await ok(t.call('cdm', SYS.usage, { groupBy: 'day' }, admin));
    expect(byDay.list).toHaveLength(1);
    expect(byDay.totals.calls).toBeGreaterThanOrEqual(5 + 2);

    const bad = await t.call('cdm', SYS.usage, { dateRange: ['2026-02-01', '2026-01-01'] }, admin);
    expect(bad.code).not.toBe('200');
    expect(bad.msg).toContain('开始日期不能晚于结束日期');
  });

  it('keeps the aggregate for the configured days only', async () => {
    await t.database.db.insertInto('apiUsageMinute').values({ minute: '2000-01-01 10:00', companyId: 1, accountId: 1, endpoint: 'cdm:019503', code: '200', calls: 7, totalMs: 7, maxMs: 1 }).execute();
    expect(await sweepUsage(t.database.db, 90)).toBe(1);
    const left = await t.database.db.selectFrom('apiUsageMinute').select('minute').where('minute', '<', '2001').execute();
    expect(left).toEqual([]);
  });
});

describe('服务监控 (019501)', () => {
  it('lists every process sharing the database; a stopped one shows as stopped', async () => {
    // (other tests of this file may have run a server over the same data and stopped it)
    const stoppedBefore = (await ok(t.call('cdm', SYS.processes, {}, admin))).list.filter((p: any) => p.status === 'stopped').length;
    const second = await startTestServer({}, { dataDir: t.config.dataDir, databaseUrl: t.config.databaseUrl || undefined });
    try {
      const token2 = await second.login();
      await ok(second.call('cdm', SYS.runs, {}, token2));
      const seen = await ok(t.call('cdm', SYS.processes, {}, admin));
      const running = seen.list.filter((p: any) => p.status === 'running');
      expect(running.length).toBeGreaterThanOrEqual(2);
      const own = seen.list.find((p: any) => p.self);
      expect(own).toMatchObject({ status: 'running', pid: String(process.pid) });
      expect(own.uptime).toMatch(/秒|分/);
      expect(own.rssMb).toBeGreaterThan(0);
      expect(own.dbSizeMb).toBeGreaterThan(0);
      expect(typeof own.pool).toBe('string');
      const fromSecond = await ok(second.call('cdm', SYS.processes, {}, token2));
      const other = fromSecond.list.find((p: any) => p.self);
      expect(other.id).not.toBe(own.id);
    } finally {
      await second.close();
    }
    const after = await ok(t.call('cdm', SYS.processes, {}, admin));
    expect(after.list.filter((p: any) => p.status === 'stopped')).toHaveLength(stoppedBefore + 1);
    expect(after.list.filter((p: any) => p.status === 'running')).toHaveLength(1);
  });
});

describe('数据校验 runs (019401, 019503, 019504)', () => {
  it('keeps each run with its differences, openable later by its time, per company', async () => {
    const clean = await ok(t.call('cdm', SYS.verify, {}, admin));
    expect(clean.total).toBe(0);
    // a balance changed behind the ledger's back: the next run finds it
    const ghost = { companyId: 1, productId: 999999, warehouseId: 999999, locationId: 0 };
    await t.database.db.insertInto('stockBalance').values({ ...ghost, onHand: 5, updatedAt: new Date().toISOString() }).execute();
    const second = await ok(t.call('cdm', SYS.verify, {}, admin));
    const runs = await ok(t.call('cdm', SYS.runs, {}, admin));
    expect(runs.list.map((r: any) => r.time)).toEqual(expect.arrayContaining([clean.time, second.time]));
    const first = await ok(t.call('cdm', SYS.run, { id: clean.time }, admin));
    expect(first).toMatchObject({ total: 0, differences: [], result: '没有差异', userName: 'admin' });
    const later = await ok(t.call('cdm', SYS.run, { id: second.time }, admin));
    expect(later.total).toBe(second.total);
    expect(later.total).toBeGreaterThan(0);
    expect(later.differences[0]).toMatchObject({ no: 1, area: '库存', kind: 'ledger', expectedOnHand: 0, actualOnHand: 5 });
    await t.database.db.deleteFrom('stockBalance').where('productId', '=', ghost.productId).execute();
    // the first run still says what it found then
    expect((await ok(t.call('cdm', SYS.run, { id: clean.time }, admin))).total).toBe(0);
    // another company neither lists nor opens them
    expect((await ok(t.call('cdm', SYS.runs, {}, admin2))).total).toBe(0);
    const foreign = await t.call('cdm', SYS.run, { id: clean.time }, admin2);
    expect(foreign.code).toBe('COMMON_NOT_FOUND_4004');
  });
});

describe('接口调试 (019803, 019804)', () => {
  it('lists the JSON codes of the catalog with whether the caller holds their right, and describes one with a prefilled body', async () => {
    const list = await ok(t.call('cdm', SYS.tryList, { keyword: '校验' }, admin));
    expect(list).toEqual(expect.arrayContaining([{ value: 'cdm:019401', label: 'cdm:019401 库存数据校验', held: true }]));
    const all = await ok(t.call('cdm', SYS.tryList, {}, admin));
    // no public login codes, no file answers
    expect(all.some((e: any) => e.value === 'auth:990103')).toBe(false);
    expect(all.some((e: any) => e.value === 'cdm:019701')).toBe(false);
    const usage = await ok(t.call('cdm', SYS.tryDescribe, { api: 'cdm:019502' }, admin));
    expect(usage.body).toContain('所需权限：system.analysis（你有此权限）');
    expect(JSON.parse(usage.template)).toMatchObject({ page: 1, pageSize: 20, groupBy: 'endpoint', filters: { dateRange: [], endpoint: null, accountId: null } });
    const missing = await t.call('cdm', SYS.tryDescribe, { api: 'cdm:999999' }, admin);
    expect(missing.code).toBe('COMMON_NOT_FOUND_4004');
  });
});

describe('数据库结构对比 (019805)', () => {
  it('finds nothing on a migrated database; a column and an index added by hand are reported, and gone once removed', async () => {
    const clean = await ok(t.call('cdm', '019805', {}, admin));
    expect(clean.list).toEqual([]);
    expect(clean.tables).toBeGreaterThan(20);
    await sql`alter table supplier add column hand_note text`.execute(t.database.db);
    await sql`create index supplier_hand_note_ix on supplier (hand_note)`.execute(t.database.db);
    try {
      const found = await ok(t.call('cdm', '019805', {}, admin));
      const got = found.list.map((d: any) => [d.kindText, d.object, d.status]);
      expect(got).toEqual(expect.arrayContaining([['列', 'supplier.hand_note', 'extra'], ['索引', 'supplier_hand_note_ix', 'extra']]));
      expect(found.list).toHaveLength(2);
      expect(found.list.find((d: any) => d.object === 'supplier.hand_note').declared).toBeNull();
    } finally {
      await sql`drop index supplier_hand_note_ix`.execute(t.database.db);
      await sql`alter table supplier drop column hand_note`.execute(t.database.db);
    }
    expect((await ok(t.call('cdm', '019805', {}, admin))).list).toEqual([]);
    expect((await t.call('cdm', '019805', {}, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
  });
});

describe('客户设备 / 销售设备 (019806–019809)', () => {
  const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:120.0) Gecko/20100101 Firefox/120.0';
  const PHONE = 'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Mobile Safari/537.36';
  const loginWith = async (user: string, ua: string) => {
    const r = await t.call('auth', '990103', { type: 0, companyCode: 'demo', userName: user, password: 'demo123' }, null, { public: true, headers: { 'user-agent': ua } });
    expect(r.code).toBe('200');
    return r.data.accessToken as string;
  };

  it('lists the devices per account; ending one device ends its sessions only; 销售设备 holds the sales accounts only', async () => {
    const onFirefox = await loginWith('admin', FIREFOX);
    const onPhone = await loginWith('admin', PHONE);
    const salesPhone = await loginWith('sales', PHONE);
    const all = await ok(t.call('cdm', '019806', { pageSize: 100 }, admin));
    const firefox = all.list.find((d: any) => d.userName === 'admin' && d.browser === 'Firefox 120');
    expect(firefox).toMatchObject({ system: 'Windows 10/11', lastIp: '127.0.0.1', sessions: 1, open: 1 });
    const phone = all.list.find((d: any) => d.userName === 'admin' && d.system === 'Android 13');
    expect(phone).toMatchObject({ browser: 'Chrome 119', open: 1 });
    expect(all.list.some((d: any) => d.userName === 'sales')).toBe(true);

    const ended = await ok(t.call('cdm', '019807', { id: firefox.id }, admin));
    expect(ended).toEqual({ ended: 1, ownSession: false });
    expect((await t.call('cdm', '019503', {}, onFirefox)).code).toBe('5011');
    expect((await t.call('cdm', '019503', {}, onPhone)).code).toBe('200');
    const after = await ok(t.call('cdm', '019806', { pageSize: 100, filters: { onlyOpen: true } }, admin));
    expect(after.list.map((d: any) => d.id)).not.toContain(firefox.id);
    const audit = await t.database.db.selectFrom('auditLog').select(['action', 'recordLabel']).where('action', '=', 'endSessions').execute();
    expect(audit).toEqual([{ action: 'endSessions', recordLabel: 'admin' }]);

    // 销售设备: the sales account's devices, whatever scope is asked; an administrator's device cannot be ended there
    const sales = await ok(t.call('cdm', '019808', { pageSize: 100, scope: 'all' }, admin));
    expect([...new Set(sales.list.map((d: any) => d.userName))]).toEqual(['sales']);
    expect((await t.call('cdm', '019809', { id: phone.id }, admin)).code).toBe('COMMON_NOT_FOUND_4004');
    const salesDevice = sales.list.find((d: any) => d.system === 'Android 13');
    expect((await ok(t.call('cdm', '019809', { id: salesDevice.id }, admin))).ended).toBe(1);
    expect((await t.call('cdm', '019503', {}, salesPhone)).code).toBe('5011');

    // rights and companies
    expect((await t.call('cdm', '019806', {}, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('cdm', '019807', { id: phone.id }, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('cdm', '019807', { id: phone.id }, admin2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('cdm', '019503', {}, onPhone)).code).toBe('200');
    expect((await t.call('cdm', '019807', { id: 'bad' }, admin)).code).toBe('COMMON_VALIDATION_4000');
  });
});

describe('文件完整性检查 (019810, 019811)', () => {
  const upload = async (token: string, color: number) => {
    const body = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: color, g: 10, b: 10 } } }).png().toBuffer();
    const { payload, headers } = multipart(`图${color}.png`, body, 'image/png');
    return (await ok(t.call('storage', '980107', undefined, token, { payload, headers }))).mediaId as string;
  };
  const stored = async (mediaId: string) => String((await t.database.db.selectFrom('media').select('storedName').where('id', '=', mediaId).executeTakeFirstOrThrow()).storedName);

  it('finds a deleted file, a changed file and an orphan; moving orphans keeps them aside', async () => {
    const root = path.join(t.config.dataDir, 'media');
    const gone = await upload(admin, 10);
    const changed = await upload(admin, 20);
    await upload(admin, 30);
    const otherCompany = await upload(admin2, 40);
    expect((await ok(t.call('cdm', '019810', {}, admin))).total).toBe(0);

    fs.rmSync(path.join(root, await stored(gone)));
    fs.appendFileSync(path.join(root, await stored(changed)), 'x');
    // an orphan: a file no record names, written an hour ago; and one just written (an upload in progress)
    const orphan = path.join(root, 'ffffffffffffffffffffffff.png');
    fs.writeFileSync(orphan, 'left over');
    const hourAgo = new Date(Date.now() - 3600_000);
    fs.utimesSync(orphan, hourAgo, hourAgo);
    fs.writeFileSync(path.join(root, 'eeeeeeeeeeeeeeeeeeeeeeee.png'), 'being written');
    // the other company's record going missing is not this company's problem
    fs.rmSync(path.join(root, await stored(otherCompany)));

    const found = await ok(t.call('cdm', '019810', {}, admin));
    expect(found).toMatchObject({ checked: 3, missing: 1, mismatch: 1, orphan: 1 });
    expect(found.list.map((p: any) => [p.kind, p.mediaId ?? p.storedName])).toEqual([['missing', gone], ['mismatch', changed], ['orphan', 'ffffffffffffffffffffffff.png']]);
    expect(found.list[1].found).toContain('字节');
    expect((await ok(t.call('cdm', '019810', { filters: { kind: 'orphan' } }, admin))).total).toBe(1);
    // the other company sees its own missing file, and nothing of the store's other files
    const seen2 = await ok(t.call('cdm', '019810', {}, admin2));
    expect(seen2).toMatchObject({ missing: 1, orphan: 0 });
    expect(seen2.list.map((p: any) => p.kind)).toEqual(['missing']);

    expect((await t.call('cdm', '019811', {}, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    const repaired = await ok(t.call('cdm', '019811', {}, admin));
    expect(repaired.moved).toBe(1);
    expect(fs.existsSync(orphan)).toBe(false);
    expect(fs.existsSync(path.join(t.config.dataDir, repaired.folder, 'ffffffffffffffffffffffff.png'))).toBe(true);
    expect((await ok(t.call('cdm', '019810', {}, admin))).orphan).toBe(0);
  });
});
