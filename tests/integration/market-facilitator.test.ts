// 服务商 (/market/facilitator, oms 0228xx) as a client sees it: save, list with filters and keyword,
// options for the sales order's select (enabled only), refusals in Chinese that change nothing, the
// version check, rights and company isolation. SQLite, or PostgreSQL when DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startTestServer, type TestServer } from './helpers.ts';

const F = { list: '022801', get: '022802', save: '022803', remove: '022804', options: '022805', export: '022806' };

let t: TestServer;
let demo: string;
let demo2: string;
let clerk: string;

beforeAll(async () => {
  t = await startTestServer();
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  clerk = await t.login('demo', 'clerk', 'demo123');
});

afterAll(async () => {
  await t?.close();
});

describe('service providers', () => {
  let sf: number;
  let broker: number;

  it('saves providers of each kind and lists them with their kind, filters and keyword', async () => {
    const a = await ok(t.call('oms', F.save, { code: 'SF', name: '顺丰速运', kind: 'carrier', contact: '王师傅', phone: '95338', email: 'ops@sf.example.com', address: '深圳市福田区' }, demo));
    sf = a.id;
    expect(a).toMatchObject({ code: 'SF', name: '顺丰速运', kind: 'carrier', enabled: true, version: 1 });
    broker = (await ok(t.call('oms', F.save, { code: 'BG01', name: '海通报关行', kind: 'broker', remark: '上海港' }, demo))).id;
    await ok(t.call('oms', F.save, { code: 'FW01', name: '远洋货代', kind: 'forwarder', enabled: false }, demo));
    // The kind defaults to 承运商 when not sent.
    expect((await ok(t.call('oms', F.save, { code: 'ZZ', name: '其他物流' }, demo))).kind).toBe('carrier');

    const all = await ok(t.call('oms', F.list, { page: 1, pageSize: 20 }, demo));
    expect(all.list.map((r: any) => r.code)).toEqual(['BG01', 'FW01', 'SF', 'ZZ']);
    expect((await ok(t.call('oms', F.list, { page: 1, filters: { kind: 'broker' } }, demo))).list.map((r: any) => r.name)).toEqual(['海通报关行']);
    expect((await ok(t.call('oms', F.list, { page: 1, keyword: '王师傅' }, demo))).list.map((r: any) => r.code)).toEqual(['SF']);
    expect((await ok(t.call('oms', F.list, { page: 1, filters: { enabled: false } }, demo))).list.map((r: any) => r.code)).toEqual(['FW01']);

    const got = await ok(t.call('oms', F.get, { id: broker }, demo));
    expect(got).toMatchObject({ code: 'BG01', kind: 'broker', remark: '上海港' });

    // Options: enabled providers only, with their code (a clerk may type it).
    const options = await ok(t.call('oms', F.options, { keyword: '' }, demo));
    expect(options.map((o: any) => o.label)).toEqual(['海通报关行', '顺丰速运', '其他物流']);
    expect(options.find((o: any) => o.id === sf)).toMatchObject({ code: 'SF' });

    // The kind shows as its label in the export.
    const file = await t.raw('oms', F.export, { page: 1 }, demo);
    expect(file.statusCode).toBe(200);
    expect(String(file.headers['content-type'])).toContain('spreadsheetml');
  });

  it('refuses bad input with Chinese messages naming each field, and writes nothing', async () => {
    const before = (await ok(t.call('oms', F.list, { page: 1 }, demo))).total;
    const bad = await t.call('oms', F.save, { code: '', name: 'x'.repeat(101), kind: 'ship', email: 'no-mail', enabled: 'maybe' }, demo);
    expect(bad.code).toBe('COMMON_VALIDATION_4000');
    const messages = bad.data.errors.map((e: any) => e.message);
    expect(messages).toEqual(expect.arrayContaining([
      '服务商编码不能为空', '服务商名称长度不能超过 100 个字符', '类型取值不正确，可选：承运商、货代、报关行、其他', '邮箱格式不正确',
    ]));
    const dup = await t.call('oms', F.save, { code: 'SF', name: '重复' }, demo);
    expect(dup.code).toBe('COMMON_UNIQUE_4011');
    expect(dup.msg).toBe('服务商编码“SF”已存在');
    expect((await ok(t.call('oms', F.list, { page: 1 }, demo))).total).toBe(before);

    expect((await ok(t.call('oms', F.save, { id: sf, version: 1, phone: '95338-1' }, demo))).version).toBe(2);
    const late = await t.call('oms', F.save, { id: sf, version: 1, name: '过期的修改' }, demo);
    expect(late.code).toBe('COMMON_VERSION_CONFLICT_4009');
    expect(late.msg).toBe('服务商已被其他人修改，请刷新后重试');
    expect((await ok(t.call('oms', F.get, { id: sf }, demo))).name).toBe('顺丰速运');
  });

  it('needs the screen rights and keeps companies apart', async () => {
    const denied = await t.call('oms', F.list, { page: 1 }, clerk);
    expect(denied.code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('oms', F.save, { code: 'CL', name: '越权' }, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    // Options are every user's (a sales order picks from them) — in the caller's company.
    expect((await ok(t.call('oms', F.options, {}, clerk))).length).toBe(3);

    expect((await ok(t.call('oms', F.list, { page: 1 }, demo2))).total).toBe(0);
    expect((await t.call('oms', F.get, { id: sf }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    await ok(t.call('oms', F.save, { code: 'SF', name: '二公司的顺丰' }, demo2));
    expect((await t.call('oms', F.remove, { id: broker }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
  });

  it('removes a provider', async () => {
    await ok(t.call('oms', F.remove, { id: broker }, demo));
    expect((await t.call('oms', F.get, { id: broker }, demo)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await ok(t.call('oms', F.list, { page: 1 }, demo))).list.map((r: any) => r.code)).toEqual(['FW01', 'SF', 'ZZ']);
  });
});
