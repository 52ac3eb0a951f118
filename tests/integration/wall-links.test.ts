// 大屏链接 (oms 023203–023205, auth 990110): a link puts the sales wall on a television with nobody logging
// in; the session it starts reads the wall and nothing else; stopping the link ends that session at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findEndpoint } from '../../src/core/catalog.ts';
import { loadCatalog } from '../../src/server/catalog/load-catalog.ts';
import { forgetShareMisses } from '../../src/server/domain/sharing/share-misses.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

const WALL = { list: '023203', create: '023204', stop: '023205', data: '023201' };

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

const open = (token: string) => t.call('auth', '990110', { token }, null, { public: true });
const tokenOf = (path: string) => path.replace('/wall/', '');

describe('大屏链接', () => {
  it('a link opens a session that reads the wall and nothing else', async () => {
    const made = await ok(t.call('oms', WALL.create, { name: '前台电视' }, admin));
    expect(made).toMatchObject({ name: '前台电视', status: 'active' });
    expect(made.path).toMatch(/^\/wall\/[A-Za-z0-9]{22}$/);

    const session = await ok(open(tokenOf(made.path)));
    expect(session.route).toBe('/dataReport');
    const wall = session.accessToken as string;
    expect((await ok(t.call('oms', WALL.data, {}, wall))).companyName).toBeTruthy();
    expect((await ok(t.call('auth', '990104', {}, wall))).functionRights).toEqual(['1', 'dataReport']);
    // the option lists any logged-in user may read, exports, uploads, the links themselves: refused
    for (const [family, code] of [['cdm', '011711'], ['cdm', '011611'], ['cdm', '013208'], ['cdm', '019902'], ['oms', WALL.list], ['cdm', '011301']] as const) {
      const method = findEndpoint(loadCatalog(), family, code)!.method as 'GET' | 'POST';
      expect((await t.call(family, code, method === 'GET' ? undefined : {}, wall, { method })).code, `${family}:${code}`).toBe('COMMON_NO_RIGHT_4003');
    }

    const listed = (await ok(t.call('oms', WALL.list, {}, admin))).list.find((l: any) => l.id === made.id);
    expect(listed).toMatchObject({ name: '前台电视', status: 'active', statusText: '使用中', createdByName: 'admin', path: made.path });
    expect(listed.lastUsedAt).toBeTruthy();
  });

  it('stopping a link ends its sessions at once and refuses it afterwards; another company cannot stop it', async () => {
    const made = await ok(t.call('oms', WALL.create, { name: '仓库电视' }, admin));
    const wall = (await ok(open(tokenOf(made.path)))).accessToken as string;
    const again = (await ok(open(tokenOf(made.path)))).accessToken as string;
    expect((await t.call('oms', WALL.stop, { id: made.id }, admin2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('oms', WALL.stop, { id: made.id }, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    await ok(t.call('oms', WALL.stop, { id: made.id }, admin));
    for (const token of [wall, again]) expect((await t.call('oms', WALL.data, {}, token)).code).toBe('5011');
    const refused = await open(tokenOf(made.path));
    expect(refused.code).toBe('WALL_LINK_INVALID_4310');
    expect(refused.msg).toContain('大屏链接已失效');
    expect((await t.call('oms', WALL.stop, { id: made.id }, admin)).code).toBe('WALL_ALREADY_REVOKED_4311');
    expect((await ok(t.call('oms', WALL.list, {}, admin))).list.find((l: any) => l.id === made.id)).toMatchObject({ status: 'revoked', statusText: '已停用', revokedByName: 'admin' });
    // 操作日志 names the links in Chinese (made, then stopped)
    const log = await ok(t.call('cdm', '019702', { filters: { entity: 'wallLink' } }, admin));
    expect(log.list.filter((r: any) => r.recordLabel === '仓库电视').map((r: any) => [r.action, r.entityTitle]).sort()).toEqual([['create', '大屏链接'], ['state', '大屏链接']]);
    // the other company sees none of this company's links
    expect((await ok(t.call('oms', WALL.list, {}, admin2))).list.map((l: any) => l.id)).not.toContain(made.id);
  });

  it('unknown tokens are refused alike, and an address trying many is stopped — its real links still open', async () => {
    forgetShareMisses();
    expect((await open('x')).code).toBe('WALL_LINK_INVALID_4310');
    expect((await open('A'.repeat(22))).code).toBe('WALL_LINK_INVALID_4310');
    for (let i = 0; i < 40; i++) await open(`B${String(i).padStart(21, '0')}`);
    expect((await open('C'.repeat(22))).code).toBe('COMMON_BUSY_4029');
    // the television behind the same address as the guesser (issue 33 item 6)
    const tv = await ok(t.call('oms', WALL.create, { name: '同一出口的电视' }, admin));
    expect((await open(tokenOf(tv.path))).code).toBe('200');
    forgetShareMisses();
  });

  it('a clerk without the right neither makes nor lists links; a name is required', async () => {
    expect((await t.call('oms', WALL.create, { name: '电视' }, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('oms', WALL.list, {}, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    const blank = await t.call('oms', WALL.create, { name: '   ' }, admin);
    expect(blank.code).not.toBe('200');
    expect(blank.msg).toContain('名称');
  });

  it('a link meets the company\'s IP whitelist when it opens', async () => {
    const made = await ok(t.call('oms', WALL.create, { name: '外地电视' }, admin2));
    expect((await ok(open(tokenOf(made.path)))).accessToken).toBeTruthy();
    const company = await t.database.db.selectFrom('company').select(['id', 'flags']).where('code', '=', 'demo2').executeTakeFirstOrThrow();
    await t.database.db.updateTable('company').set({ flags: JSON.stringify({ ...JSON.parse(String(company.flags || '{}')), ipWhitelist: true }) }).where('id', '=', company.id).execute();
    try {
      const refused = await open(tokenOf(made.path));
      expect(refused.code).toBe('5019');
      expect(refused.msg).toContain('白名单');
    } finally {
      await t.database.db.updateTable('company').set({ flags: company.flags }).where('id', '=', company.id).execute();
    }
  });

  it('a link stops working when its maker is disabled', async () => {
    const accountId = Number((await t.database.db.selectFrom('account').select('id').where('userName', '=', 'sales').executeTakeFirst())?.id);
    expect(accountId).toBeGreaterThan(0);
    const made = await ok(t.call('oms', WALL.create, { name: '会议室' }, admin));
    await t.database.db.updateTable('wallLink').set({ createdBy: accountId }).where('id', '=', made.id).execute();
    // the maker (here: sales) holds no wall right → refused, like a disabled maker
    expect((await open(tokenOf(made.path))).code).toBe('WALL_LINK_INVALID_4310');
  });
  it('a change of the maker\'s rights or roles narrows its walls at once (issue 33 item 6)', async () => {
    const role = await ok(t.call('cdm', '013303', { name: '大屏维护', rights: ['dataReport', 'dataReport.links'] }, admin));
    const account = await ok(t.call('cdm', '013403', { userName: 'wallmaker', password: 'Wall-maker-2026', roleIds: [role.id] }, admin));
    const maker = await t.login('demo', 'wallmaker', 'Wall-maker-2026');
    const made = await ok(t.call('oms', WALL.create, { name: '大厅电视' }, maker));
    const wall = (await ok(open(tokenOf(made.path)))).accessToken as string;
    expect((await t.call('oms', WALL.data, {}, wall)).code).toBe('200');
    // the role loses the wall's right: the next call of the wall's session is refused, not 30 minutes later
    const held = await ok(t.call('cdm', '013302', { id: role.id }, admin));
    await ok(t.call('cdm', '013303', { id: role.id, version: held.version, rights: ['dataReport.links'] }, admin));
    expect((await t.call('oms', WALL.data, {}, wall)).code).not.toBe('200');
    // given back, a new session of the link reads again; then the account loses the role
    const again = await ok(t.call('cdm', '013302', { id: role.id }, admin));
    await ok(t.call('cdm', '013303', { id: role.id, version: again.version, rights: ['dataReport', 'dataReport.links'] }, admin));
    const wall2 = (await ok(open(tokenOf(made.path)))).accessToken as string;
    expect((await t.call('oms', WALL.data, {}, wall2)).code).toBe('200');
    const acc = await ok(t.call('cdm', '013402', { id: account.id }, admin));
    await ok(t.call('cdm', '013403', { id: account.id, version: acc.version, roleIds: [] }, admin));
    expect((await t.call('oms', WALL.data, {}, wall2)).code).not.toBe('200');
  });
});
