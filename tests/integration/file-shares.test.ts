// Shared files (/a/{id}, issue 17) on a real database (SQLite, or PostgreSQL when DATABASE_URL is set): an
// employee shares a finished export or an uploaded file (980201), lists (980202) and revokes (980203) the
// links; anyone holding a link reads its page (980204) and downloads the file (980205) without a token.
// Downloads are counted and a limit holds under concurrent downloads; the link expires by the server's
// clock; another company can neither see nor revoke a link; unknown ids are refused, and in bulk throttled.
import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { exportJobsIdle } from '../../src/server/domain/export-jobs.ts';
import { forgetShareMisses, MAX_MISSES } from '../../src/server/domain/sharing/share-misses.ts';
import { advanceClock, ok, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let admin: string;
let clerk: string;
let other: string;

const S = { create: '980201', list: '980202', revoke: '980203', page: '980204', download: '980205' };
const DAY = 24 * 3600 * 1000;

const envelope = (r: { body: string }) => JSON.parse(r.body) as { code: string; msg: string; data: any };
const share = (body: Record<string, unknown>, token = admin) => t.call('storage', S.create, body, token);
const page = (id: string, ip?: string) => t.call('storage', S.page, { id }, null, { public: true, ip });
const download = (id: string) => t.raw('storage', S.download, { id }, null, { public: true });
const tokenOf = (path: string) => path.replace(/^\/a\//, '');
const myShares = async (token = admin, filters: Record<string, unknown> = {}) => (await ok(t.call('storage', S.list, { page: 1, pageSize: 100, filters }, token))).list as any[];
const audits = async (action: string) => (await ok(t.call('cdm', '019702', { page: 1, pageSize: 50, filters: { action } }, admin))).list as any[];

/** A finished export of the departments (the export centre's own background job), with its bytes. */
async function finishedExport(token = admin): Promise<{ id: number; bytes: Buffer; fileName: string }> {
  const job = await ok(t.call('cdm', '019901', { api: 'cdm:012905', body: {} }, token));
  await exportJobsIdle();
  const r = await t.raw('cdm', '019903', { id: job.id }, token);
  expect(r.headers['content-type']).toMatch(/spreadsheetml/);
  const row = (await ok(t.call('cdm', '019902', { page: 1, pageSize: 50 }, token))).list.find((j: any) => j.id === job.id);
  return { id: job.id, bytes: r.rawPayload, fileName: row.fileName };
}

function multipart(filename: string, content: Buffer) {
  const boundary = '----share' + crypto.randomBytes(8).toString('hex');
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

beforeAll(async () => {
  t = await startTestServer({ LOGIN_MAX_FAILURES: '1000', LOGIN_MAX_FAILURES_PER_IP: '100000' });
  admin = await t.login('demo', 'admin', 'demo123');
  clerk = await t.login('demo', 'clerk', 'demo123');
  other = await t.login('demo2', 'admin', 'demo123');
  await ok(t.call('cdm', '012903', { code: 'SH1', name: '分享测试部' }, admin));
});

afterEach(() => forgetShareMisses());

afterAll(async () => {
  vi.useRealTimers();
  await exportJobsIdle();
  await t?.close();
});

describe('sharing an export file', () => {
  it('makes an unguessable link whose page tells the file, and whose download is the file, counted', async () => {
    const exp = await finishedExport();
    const made = await ok(share({ kind: 'export', exportJobId: exp.id }));
    expect(made.path).toMatch(/^\/a\/[A-Za-z0-9]{22}$/);
    expect(made.days).toBe(7);
    const id = tokenOf(made.path);

    const info = await page(id);
    expect(info.code).toBe('200');
    expect(info.data).toEqual({
      id, fileName: exp.fileName, fileSize: exp.bytes.length, fileSizeText: expect.stringMatching(/(B|KB)$/),
      expiresAt: made.expiresAt, maxDownloads: null, remaining: null, remainingText: '不限',
    });
    expect(Date.parse(made.expiresAt) - Date.now()).toBeGreaterThan(7 * DAY - 60_000);

    const r = await download(id);
    expect(r.headers['content-type']).toMatch(/spreadsheetml/);
    expect(String(r.headers['content-disposition'])).toMatch(/^attachment;/);
    expect(r.rawPayload.equals(exp.bytes)).toBe(true);
    await download(id);

    const row = (await myShares()).find((s) => s.id === made.id);
    expect(row).toMatchObject({ fileName: exp.fileName, status: 'active', statusText: '有效', downloadCount: 2, downloadsText: '2 / 不限', createdByName: 'admin', kindText: '导出文件' });
    expect((await audits('share')).find((a) => a.recordId === String(made.id))).toMatchObject({ recordLabel: exp.fileName, entity: 'fileShare' });
  });

  it('gives exactly the allowed downloads when they race, then says the link is used up', async () => {
    const exp = await finishedExport();
    for (const max of [1, 2]) {
      const id = tokenOf((await ok(share({ kind: 'export', exportJobId: exp.id, maxDownloads: max }))).path);
      expect((await page(id)).data).toMatchObject({ maxDownloads: max, remaining: max, remainingText: `${max} 次` });
      const answers = await Promise.all(Array.from({ length: 5 }, () => download(id)));
      const files = answers.filter((a) => String(a.headers['content-type']).includes('spreadsheetml'));
      expect(files.length).toBe(max);
      for (const f of files) expect(f.rawPayload.equals(exp.bytes)).toBe(true);
      const refused = answers.filter((a) => !files.includes(a)).map((a) => envelope(a));
      expect(refused.map((e) => e.code)).toEqual(Array(5 - max).fill('SHARE_EXHAUSTED_4304'));
      expect(refused[0]!.msg).toBe(`链接的下载次数已用完（共 ${max} 次），请联系分享人重新分享`);
      expect((await page(id)).code).toBe('SHARE_EXHAUSTED_4304');
      expect((await myShares(admin, { status: 'exhausted' })).map((s) => s.path)).toContain(`/a/${id}`);
    }
  });

  it('is refused for a job that is not the caller\'s, another company\'s, or with a period not offered', async () => {
    const exp = await finishedExport();
    expect((await share({ kind: 'export', exportJobId: exp.id }, other)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await share({ kind: 'export', exportJobId: exp.id, days: 3 })).code).toBe('COMMON_VALIDATION_4000');
    const bad = await share({ kind: 'export', exportJobId: exp.id, maxDownloads: 0 });
    expect(bad.code).toBe('COMMON_VALIDATION_4000');
    expect(bad.msg).toContain('最多下载次数');
    // the clerk's role holds no right to share
    expect((await share({ kind: 'export', exportJobId: exp.id }, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
  });

  it('never outlives the export file: a 30-day link ends when the export is swept', async () => {
    const exp = await finishedExport();
    const made = await ok(share({ kind: 'export', exportJobId: exp.id, days: 30 }));
    const job = (await ok(t.call('cdm', '019902', { page: 1, pageSize: 50 }, admin))).list.find((j: any) => j.id === exp.id);
    expect(made.capped).toBe(true);
    expect(made.expiresAt).toBe(job.expiresAt);
  });

  it('says the file is gone once the export was deleted', async () => {
    const exp = await finishedExport();
    const id = tokenOf((await ok(share({ kind: 'export', exportJobId: exp.id }))).path);
    await ok(t.call('cdm', '019904', { id: exp.id }, admin));
    expect(await page(id)).toMatchObject({ code: 'SHARE_FILE_GONE_4305', msg: '分享的文件已不存在（已被删除或已过保留期限），请联系分享人重新分享' });
    expect(envelope(await download(id)).code).toBe('SHARE_FILE_GONE_4305');
  });
});

describe('sharing an uploaded file', () => {
  it('shares a media file by its id', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
    const { payload, headers } = multipart('报价单.pdf', pdf);
    const up = await ok(t.call('storage', '980107', undefined, admin, { payload, headers }));
    const made = await ok(share({ kind: 'media', mediaId: up.mediaId }));
    expect((await page(tokenOf(made.path))).data).toMatchObject({ fileName: '报价单.pdf', fileSize: pdf.length });
    const r = await download(tokenOf(made.path));
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(r.rawPayload.equals(pdf)).toBe(true);
    // another company's media id is no file of the caller's
    expect((await share({ kind: 'media', mediaId: up.mediaId }, other)).code).toBe('STORAGE_NOT_EXIST_4043');
  });
});

describe('revoking', () => {
  it('ends the link at once; the owner revokes, another company cannot even see it', async () => {
    const exp = await finishedExport();
    const made = await ok(share({ kind: 'export', exportJobId: exp.id }));
    const id = tokenOf(made.path);

    expect((await t.call('storage', S.revoke, { id: made.id }, other)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await myShares(other)).map((s) => s.id)).not.toContain(made.id);
    const companyWide = async (token: string) => (await ok(t.call('storage', '980206', { page: 1, pageSize: 100 }, token))).list as any[];
    expect((await companyWide(other)).map((s) => s.id)).not.toContain(made.id);
    expect((await companyWide(admin)).find((s) => s.id === made.id)).toMatchObject({ createdByName: 'admin', status: 'active' });
    expect((await t.call('storage', '980206', { page: 1 }, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await page(id)).code).toBe('200');

    const revoked = await ok(t.call('storage', S.revoke, { id: made.id }, admin));
    expect(revoked.revokedAt).toBeTruthy();
    expect(await page(id)).toMatchObject({ code: 'SHARE_REVOKED_4303', msg: '链接已被分享人撤销，请联系分享人' });
    expect(envelope(await download(id)).code).toBe('SHARE_REVOKED_4303');
    expect((await t.call('storage', S.revoke, { id: made.id }, admin)).code).toBe('SHARE_ALREADY_REVOKED_4306');
    expect((await myShares(admin, { status: 'revoked' })).find((s) => s.id === made.id)).toMatchObject({ statusText: '已撤销', revokedByName: 'admin' });
    expect((await audits('revoke')).find((a) => a.recordId === String(made.id))).toMatchObject({ entity: 'fileShare', recordLabel: exp.fileName });
  });
});

describe('sharers of one company', () => {
  it('sees and revokes only their own links; the holder of 全部分享 revokes anyone\'s', async () => {
    const role = await ok(t.call('cdm', '013303', { name: '分享员', rights: ['reportForms.download', 'reportForms.download.share', 'baseConfig.department.export'] }, admin));
    await ok(t.call('cdm', '013403', { userName: 'sharer', password: 'secret-111', roleIds: [role.id] }, admin));
    const sharer = await t.login('demo', 'sharer', 'secret-111');
    const theirs = await ok(share({ kind: 'export', exportJobId: (await finishedExport(sharer)).id }, sharer));
    const adminExport = await finishedExport();
    const mine = await ok(share({ kind: 'export', exportJobId: adminExport.id }));
    // the admin's export is not the sharer's to share
    expect((await share({ kind: 'export', exportJobId: adminExport.id }, sharer)).code).toBe('COMMON_NOT_FOUND_4004');

    expect((await myShares(sharer)).map((x) => x.id)).toEqual([theirs.id]);
    expect((await myShares(admin)).map((x) => x.id)).not.toContain(theirs.id);
    expect((await t.call('storage', '980206', { page: 1 }, sharer)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('storage', S.revoke, { id: mine.id }, sharer)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await page(tokenOf(mine.path))).code).toBe('200');

    await ok(t.call('storage', S.revoke, { id: theirs.id }, admin));
    expect((await page(tokenOf(theirs.path))).code).toBe('SHARE_REVOKED_4303');
    expect((await myShares(sharer, { status: 'revoked' }))[0]).toMatchObject({ id: theirs.id, revokedByName: 'admin' });
  });
});

describe('what a link holder can learn', () => {
  it('refuses unknown and malformed ids alike, and throttles an address trying many', async () => {
    const ip = '203.0.113.9';
    for (const id of ['A'.repeat(22), 'nope', '../../etc/passwd', '']) {
      expect(await page(id, ip)).toMatchObject({ code: 'SHARE_NOT_FOUND_4301', msg: '链接不存在，请向发送链接的人确认链接是否完整' });
    }
    for (let i = 4; i < MAX_MISSES; i++) expect((await page(crypto.randomBytes(11).toString('hex').slice(0, 22), ip)).code).toBe('SHARE_NOT_FOUND_4301');
    const exp = await finishedExport();
    const good = tokenOf((await ok(share({ kind: 'export', exportJobId: exp.id }))).path);
    // misses from the address are stopped; a real link still opens from it (issue 33 item 6: a guesser
    // behind an office NAT must not darken everyone's links)
    expect((await page(crypto.randomBytes(11).toString('hex').slice(0, 22), ip)).code).toBe('COMMON_BUSY_4029');
    expect((await page(good, ip)).code).toBe('200');
    expect((await page(good, '203.0.113.10')).code).toBe('200');
  });

  it('answers no more than the file: no company, no sharer, no internal ids', async () => {
    const exp = await finishedExport();
    const made = await ok(share({ kind: 'export', exportJobId: exp.id, maxDownloads: 3 }));
    const body = JSON.stringify((await page(tokenOf(made.path))).data);
    for (const secret of ['演示贸易', 'demo', 'admin', `"exportJobId"`, `"id":${made.id},`, 'companyId']) expect(body).not.toContain(secret);
  });
});

describe('expiry by the server clock', () => {
  it('expires a 1-day link after a day, with its own message, and lists it as expired', async () => {
    const exp = await finishedExport();
    const made = await ok(share({ kind: 'export', exportJobId: exp.id, days: 1 }));
    const week = await ok(share({ kind: 'export', exportJobId: exp.id, days: 7 }));
    const id = tokenOf(made.path);
    advanceClock(DAY - 60_000);
    expect((await page(id)).code).toBe('200');
    advanceClock(2 * 60_000);
    expect(await page(id)).toMatchObject({ code: 'SHARE_EXPIRED_4302', msg: '链接已过期，请联系分享人重新分享' });
    expect(envelope(await download(id)).code).toBe('SHARE_EXPIRED_4302');
    expect((await page(tokenOf(week.path))).code).toBe('200');
    const fresh = await t.login('demo', 'admin', 'demo123');
    expect((await myShares(fresh, { status: 'expired' })).map((s) => s.id)).toContain(made.id);
    expect((await myShares(fresh, { status: 'active' })).map((s) => s.id)).toEqual(expect.arrayContaining([week.id]));
    expect((await myShares(fresh, { status: 'active' })).map((s) => s.id)).not.toContain(made.id);
  });
});
