// The export centre on a real database (SQLite, or PostgreSQL when DATABASE_URL is set): a background
// export of any export code the caller may call (019901), the caller's job list (019902), the download
// (019903) that only the owner gets, removal (019904), failures with their Chinese message, jobs whose
// process went away, and the file: a real .xlsx holding the rows the synchronous export would hold.
// Retention: the list says when each finished job expires; jobs and files older than
// EXPORT_RETENTION_DAYS are swept at start-up and periodically, and their download says so.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { exportJobsIdle, STALE_MS } from '../../src/server/domain/export-jobs.ts';
import { startExportSweep, sweepExports } from '../../src/server/domain/export-retention.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';
import { xlsxRows } from './trade-flow.ts';

let t: TestServer;
let admin: string;
let clerk: string;
let other: string;

const J = { start: '019901', list: '019902', download: '019903', remove: '019904' };


const GONE = (days: number) => `导出任务不存在，或已超过保留期限（导出文件保留 ${days} 天）被自动清理，请重新导出`;
const DAY = 24 * 3600 * 1000;
const start = (api: string, body: Record<string, unknown> = {}, token = admin) => t.call('cdm', J.start, { api, body }, token);
const jobs = async (token = admin) => (await ok(t.call('cdm', J.list, { page: 1, pageSize: 50 }, token))).list as any[];

/** The job as its owner lists it, once it has finished. */
async function finished(id: number, token = admin) {
  await exportJobsIdle();
  return (await jobs(token)).find((j) => j.id === id);
}


beforeAll(async () => {
  t = await startTestServer({ LOGIN_MAX_FAILURES: '1000', LOGIN_MAX_FAILURES_PER_IP: '100000' });
  admin = await t.login('demo', 'admin', 'demo123');
  clerk = await t.login('demo', 'clerk', 'demo123');
  other = await t.login('demo2', 'admin', 'demo123');
});

afterAll(async () => {
  await exportJobsIdle();
  await t?.close();
});

describe('export jobs', () => {
  it('runs an export in the background and gives its owner the same rows as a real .xlsx', async () => {
    for (const [code, name] of [['EJ1', '导出任务部一'], ['EJ2', '导出任务部二'], ['EJ3', '其他部门']]) await ok(t.call('cdm', '012903', { code, name }, admin));
    const job = await ok(start('cdm:012905', { keyword: '导出任务', sort: { field: 'code', order: 'descend' } }));
    expect(job).toMatchObject({ name: '导出部门', status: 'queued', statusText: '排队中' });

    const done = await finished(job.id);
    expect(done).toMatchObject({ id: job.id, api: 'cdm:012905', name: '导出部门', status: 'done', statusText: '已完成', rowCount: 2, error: null });
    expect(done.fileName).toMatch(/^部门_\d{8}\.xlsx$/);
    expect(done.fileSize).toBeGreaterThan(1000);
    expect(done.finishedAt >= done.startedAt).toBe(true);

    const res = await t.raw('cdm', J.download, { id: job.id }, admin);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.rawPayload.length).toBe(done.fileSize);
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain(done.fileName);
    const rows = await xlsxRows(res.rawPayload);
    // the same as the synchronous export with the same body
    const sync = await t.raw('cdm', '012905', { keyword: '导出任务', sort: { field: 'code', order: 'descend' } }, admin);
    expect(rows).toEqual(await xlsxRows(sync.rawPayload));
    expect(rows[0]!.slice(0, 3)).toEqual(['上级部门', '部门编码', '部门名称']);
    expect(rows.slice(1).map((r) => r.slice(1, 3))).toEqual([['EJ2', '导出任务部二'], ['EJ1', '导出任务部一']]);
  });

  it('only the owner sees and downloads a job: another account of the company or another company is refused', async () => {
    const job = await ok(start('cdm:012905'));
    expect((await finished(job.id)).status).toBe('done');
    expect((await jobs(clerk)).map((j) => j.id)).not.toContain(job.id);
    expect((await jobs(other)).map((j) => j.id)).not.toContain(job.id);
    for (const token of [clerk, other]) {
      const r = await t.call('cdm', J.download, { id: job.id }, token);
      expect(r).toMatchObject({ code: 'EXPORT_JOB_EXPIRED_4185', msg: GONE(7) });
      expect((await t.call('cdm', J.remove, { id: job.id }, token)).code).toBe('COMMON_NOT_FOUND_4004');
    }
    // the owner still can
    expect((await t.raw('cdm', J.download, { id: job.id }, admin)).statusCode).toBe(200);
  });

  it('starts only export codes the caller may call, and refuses bad bodies at once', async () => {
    expect((await start('cdm:012905', {}, clerk))).toMatchObject({ code: 'COMMON_NO_RIGHT_4003', msg: '无权限执行“导出部门”，请联系管理员授权' });
    expect(await start('cdm:012901')).toMatchObject({ code: 'EXPORT_NOT_EXPORT_CODE_4181', msg: '接口 cdm:012901 不是导出接口，不能在导出中心导出' });
    expect((await start('cdm:012907')).code).toBe('EXPORT_NOT_EXPORT_CODE_4181'); // a template, not an export
    expect((await start('cdm:019903')).code).toBe('EXPORT_NOT_EXPORT_CODE_4181');
    expect((await start('cdm:000000')).code).toBe('EXPORT_NOT_EXPORT_CODE_4181');
    expect(await t.call('cdm', J.start, { api: 'nonsense' }, admin)).toMatchObject({ code: 'COMMON_VALIDATION_4000', msg: '导出接口格式不正确' });
    expect(await start('cdm:012905', { keyword: 'x'.repeat(101) })).toMatchObject({ code: 'COMMON_VALIDATION_4000', msg: '关键字长度不能超过 100 个字符' });
    expect((await jobs()).filter((j) => j.status === 'failed')).toEqual([]);
  });

  it('a job that fails keeps its Chinese message and cannot be downloaded; finished jobs can be removed with their file', async () => {
    const job = await ok(start('cdm:012905', { filters: { secret: 'x' } }));
    const failed = await finished(job.id);
    expect(failed).toMatchObject({ status: 'failed', statusText: '失败', error: '不能按“secret”筛选', rowCount: null, fileSize: null });
    expect(await t.call('cdm', J.download, { id: job.id }, admin)).toMatchObject({ code: 'EXPORT_JOB_NOT_READY_4182', msg: '导出任务“导出部门”当前状态为“失败”，完成后才能下载' });

    const done = await ok(start('cdm:012905'));
    await finished(done.id);
    const dir = path.join(t.config.dataDir, 'exports');
    const files = () => fs.readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.xlsx'));
    const before = files().length;
    expect(await ok(t.call('cdm', J.remove, { id: done.id }, admin))).toEqual({ removed: 1 });
    expect(files().length).toBe(before - 1);
    expect((await jobs()).map((j) => j.id)).not.toContain(done.id);
    expect((await t.call('cdm', J.download, { id: done.id }, admin)).code).toBe('EXPORT_JOB_EXPIRED_4185');

    // a file that went missing on disk is said so
    const lost = await ok(start('cdm:012905'));
    await finished(lost.id);
    const row = await t.database.db.selectFrom('exportJob').select(['companyId', 'storedName']).where('id', '=', lost.id).executeTakeFirstOrThrow();
    fs.rmSync(path.join(dir, String(row.companyId), String(row.storedName)));
    expect(await t.call('cdm', J.download, { id: lost.id }, admin)).toMatchObject({ code: 'EXPORT_FILE_GONE_4183', msg: '导出任务“导出部门”的文件已不存在，请重新导出' });
  });

  it('runs hand-written exports too (purchase orders), with their own conditions', async () => {
    const wh = (await ok(t.call('cdm', '011001', { page: 1, pageSize: 1 }, admin))).list[0].id;
    const supplierId = (await ok(t.call('cdm', '011601', { page: 1, pageSize: 1 }, admin))).list[0].id;
    const p = await ok(t.call('cdm', '010203', { code: 'EJP1', name: '导出任务商品' }, admin));
    const po = await ok(t.call('oms', '020203', { supplierId, warehouseId: wh, lines: [{ productId: p.id, qty: 2, price: '1.5' }, { productId: p.id, qty: 3, price: '2' }] }, admin));
    const job = await ok(start('oms:020209', { docNo: po.docNo }));
    const done = await finished(job.id);
    expect(done).toMatchObject({ status: 'done', name: '导出采购订单', api: 'oms:020209' });
    const rows = await xlsxRows((await t.raw('cdm', J.download, { id: job.id }, admin)).rawPayload);
    expect(rows.slice(1).every((r) => r.includes(po.docNo))).toBe(true);
    expect(done.rowCount).toBe(rows.length - 1);
    expect(done.rowCount).toBeGreaterThanOrEqual(1);
  });

  it('exports a report in the background: rows counted without its 合计 line', async () => {
    const job = await ok(start('cdm:019604', { groupBy: 'warehouse', filters: { onlyInStock: false } }));
    const done = await finished(job.id);
    expect(done).toMatchObject({ status: 'done', name: '导出库存报表' });
    const rows = await xlsxRows((await t.raw('cdm', J.download, { id: job.id }, admin)).rawPayload);
    expect(rows[rows.length - 1]![0]).toBe('合计');
    expect(done.rowCount).toBe(rows.length - 2);
  });

  it('marks a job whose process went away as failed; limits unfinished jobs per account', async () => {
    const me = await t.database.db.selectFrom('account').innerJoin('company', 'company.id', 'account.companyId').where('company.code', '=', 'demo').where('account.userName', '=', 'admin').select(['account.id', 'account.companyId']).executeTakeFirstOrThrow();
    const old = new Date(Date.now() - STALE_MS - 60_000).toISOString();
    const fresh = new Date().toISOString();
    const row = (status: string, heartbeatAt: string) => ({
      companyId: me.companyId, accountId: me.id, family: 'cdm', code: '012905', name: '导出部门', body: '{}', status, runner: 'gone', createdAt: old, heartbeatAt,
    });
    const orphan = await t.database.db.insertInto('exportJob').values(row('running', old)).returning('id').executeTakeFirstOrThrow();
    const listed = (await jobs()).find((j) => j.id === Number(orphan.id));
    expect(listed).toMatchObject({ status: 'failed', error: '任务中断（服务重启或进程退出），请重新导出' });

    // five unfinished jobs (another process still beating for them): a sixth is refused
    await t.database.db.insertInto('exportJob').values([1, 2, 3, 4, 5].map(() => row('queued', fresh))).execute();
    expect(await start('cdm:012905')).toMatchObject({ code: 'EXPORT_JOB_BUSY_4184', msg: '您已有 5 个导出任务正在进行，请等待完成后再导出' });
    expect((await jobs()).filter((j) => j.status === 'queued')).toHaveLength(5);
  });

  it('lists when each finished job expires, and sweeps jobs and files past the retention with a clear download message', async () => {
    // the unfinished jobs of the test above belong to no process here
    await t.database.db.deleteFrom('exportJob').where('runner', '=', 'gone').execute();
    const dir = path.join(t.config.dataDir, 'exports');
    const a = await ok(start('cdm:012905'));
    const b = await ok(start('cdm:012905'));
    await finished(b.id);
    const listed = (await jobs()).find((j) => j.id === a.id);
    expect(Date.parse(listed.expiresAt) - Date.parse(listed.finishedAt)).toBe(7 * DAY);
    // a is 8 days old, b 6 days: only a goes, with its file
    const stored = async (id: number) => t.database.db.selectFrom('exportJob').select(['companyId', 'storedName']).where('id', '=', id).executeTakeFirstOrThrow();
    const fileA = await stored(a.id);
    const pathA = path.join(dir, String(fileA.companyId), String(fileA.storedName));
    await t.database.db.updateTable('exportJob').set({ finishedAt: new Date(Date.now() - 8 * DAY).toISOString() }).where('id', '=', a.id).execute();
    await t.database.db.updateTable('exportJob').set({ finishedAt: new Date(Date.now() - 6 * DAY).toISOString() }).where('id', '=', b.id).execute();
    // files no job names: an old left-over goes, a new one stays (it may be a job being recorded)
    const leftover = path.join(dir, String(fileA.companyId), '999999-old.xlsx.part');
    const recent = path.join(dir, String(fileA.companyId), '999998-new.xlsx.part');
    fs.writeFileSync(leftover, 'x');
    fs.writeFileSync(recent, 'x');
    const tenDaysAgo = new Date(Date.now() - 10 * DAY);
    fs.utimesSync(leftover, tenDaysAgo, tenDaysAgo);
    fs.utimesSync(pathA, tenDaysAgo, tenDaysAgo); // the job's own file is judged by its job, not its time

    expect(await sweepExports(t.database.db, t.config.dataDir, 7)).toEqual({ jobs: 1, files: 2 });
    expect([fs.existsSync(pathA), fs.existsSync(leftover), fs.existsSync(recent)]).toEqual([false, false, true]);
    expect((await jobs()).map((j) => j.id)).not.toContain(a.id);
    expect(await t.call('cdm', J.download, { id: a.id }, admin)).toMatchObject({ code: 'EXPORT_JOB_EXPIRED_4185', msg: GONE(7) });
    expect((await t.raw('cdm', J.download, { id: b.id }, admin)).statusCode).toBe(200);
    // a second sweep finds nothing more; 0 days keeps everything
    expect(await sweepExports(t.database.db, t.config.dataDir, 7)).toEqual({ jobs: 0, files: 0 });
    expect(await sweepExports(t.database.db, t.config.dataDir, 0)).toEqual({ jobs: 0, files: 0 });
    fs.rmSync(recent);

    // unfinished jobs are never swept, however old
    const me = await t.database.db.selectFrom('exportJob').select(['companyId', 'accountId']).where('id', '=', b.id).executeTakeFirstOrThrow();
    const ancient = new Date(Date.now() - 30 * DAY).toISOString();
    const queued = await t.database.db.insertInto('exportJob').values({
      companyId: me.companyId, accountId: me.accountId, family: 'cdm', code: '012905', name: '导出部门', body: '{}', status: 'queued', runner: 'elsewhere', createdAt: ancient, heartbeatAt: new Date().toISOString(),
    }).returning('id').executeTakeFirstOrThrow();
    expect((await sweepExports(t.database.db, t.config.dataDir, 7)).jobs).toBe(0);
    await t.database.db.deleteFrom('exportJob').where('id', '=', Number(queued.id)).execute();
  });

  it('sweeps at start-up with EXPORT_RETENTION_DAYS and again on its interval', async () => {
    const c = await ok(start('cdm:012905'));
    await finished(c.id);
    await t.database.db.updateTable('exportJob').set({ finishedAt: new Date(Date.now() - 4 * DAY).toISOString() }).where('id', '=', c.id).execute();
    // another server process on the same data, keeping files 3 days: its start-up sweep removes c
    const second = await startTestServer({ EXPORT_RETENTION_DAYS: '3' }, { dataDir: t.config.dataDir, databaseUrl: t.config.databaseUrl });
    try {
      const token = await second.login('demo', 'admin', 'demo123');
      for (let i = 0; i < 100 && (await jobs(token)).some((j) => j.id === c.id); i++) await new Promise((r) => setTimeout(r, 20));
      expect((await jobs(token)).map((j) => j.id)).not.toContain(c.id);
      expect(await second.call('cdm', J.download, { id: c.id }, token)).toMatchObject({ code: 'EXPORT_JOB_EXPIRED_4185', msg: GONE(3) });
      const d = await ok(second.call('cdm', J.start, { api: 'cdm:012905', body: {} }, token));
      await exportJobsIdle();
      const listed = (await ok(second.call('cdm', J.list, { page: 1, pageSize: 50 }, token))).list.find((j: any) => j.id === d.id);
      expect(Date.parse(listed.expiresAt) - Date.parse(listed.finishedAt)).toBe(3 * DAY);
    } finally {
      await second.close();
    }

    // the periodic sweep: a job that grows old after start is removed on the next round
    const e = await ok(start('cdm:012905'));
    await finished(e.id);
    const sweep = startExportSweep(t.database.db, t.config.dataDir, 7, 30);
    try {
      await t.database.db.updateTable('exportJob').set({ finishedAt: new Date(Date.now() - 8 * DAY).toISOString() }).where('id', '=', e.id).execute();
      for (let i = 0; i < 100 && (await jobs()).some((j) => j.id === e.id); i++) await new Promise((r) => setTimeout(r, 20));
      expect((await jobs()).map((j) => j.id)).not.toContain(e.id);
    } finally {
      await sweep.stop();
    }
  });

  it('reads EXPORT_RETENTION_DAYS: 7 by default, 0 keeps files, a bad value stops start-up in Chinese', async () => {
    expect(loadConfig({}).exportRetentionDays).toBe(7);
    expect(loadConfig({ EXPORT_RETENTION_DAYS: '0' }).exportRetentionDays).toBe(0);
    expect(() => loadConfig({ EXPORT_RETENTION_DAYS: '-1' })).toThrow('环境变量 EXPORT_RETENTION_DAYS 必须是非负数字，当前为 “-1”');
    const keep = await startTestServer({ EXPORT_RETENTION_DAYS: '0' }, { dataDir: t.config.dataDir, databaseUrl: t.config.databaseUrl });
    try {
      const token = await keep.login('demo', 'admin', 'demo123');
      const list = (await ok(keep.call('cdm', J.list, { page: 1, pageSize: 50 }, token))).list as any[];
      expect(list.filter((j) => j.status === 'done').every((j) => j.expiresAt === null)).toBe(true);
      // without a retention nothing is swept, so an unknown job is simply not found
      expect(await keep.call('cdm', J.download, { id: 99999999 }, token)).toMatchObject({ code: 'COMMON_NOT_FOUND_4004', msg: '导出任务不存在或已被删除' });
    } finally {
      await keep.close();
    }
  });
});
