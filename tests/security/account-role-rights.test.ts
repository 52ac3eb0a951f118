// Issue 19, item 1: an account editor must not take over the administrator. Every account and role write
// code of the catalog (found by its handler, so a code added later is covered or fails here) is driven by a
// caller holding the editing rights but fewer rights than its target, and must be refused with a clear
// message, changing nothing. And a company always keeps an enabled all-rights account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointEntry, Family } from '../../src/core/catalog.ts';
import { loadCatalog } from '../../src/server/catalog/load-catalog.ts';
import { ok, startTestServer, type TestServer } from '../integration/helpers.ts';

let t: TestServer;
let admin: string;

/** Rights to edit, disable, delete accounts and edit and delete roles — and nothing else. */
const EDITOR_RIGHTS = [
  'baseConfig.accountManagementList', 'baseConfig.accountManagementList.edit', 'baseConfig.accountManagementList.remove',
  'baseConfig.role', 'baseConfig.role.edit', 'baseConfig.role.remove',
];

interface Target { kind: 'account' | 'role'; id: number; name: string }
let editor: string;
let adminAccount: Target;
let richAccount: Target; // holds commodity.list, which the editor lacks
let adminRole: Target;
let richRole: Target;
let juniorAccount: Target; // holds a subset of the editor's rights
let juniorRole: Target;

async function accountRow(userName: string) {
  return (await ok(t.call('cdm', '013401', { page: 1, filters: { userName } }, admin))).list[0];
}
async function roleByName(name: string) {
  return (await ok(t.call('cdm', '013301', { page: 1, filters: { name } }, admin))).list[0];
}

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login('demo', 'admin', 'demo123');
  const editorRole = await ok(t.call('cdm', '013303', { name: '账号管理员', rights: EDITOR_RIGHTS }, admin));
  await ok(t.call('cdm', '013403', { userName: 'acct.editor', password: 'Editor-2026', roleIds: [editorRole.id] }, admin));
  editor = await t.login('demo', 'acct.editor', 'Editor-2026');

  const rich = await ok(t.call('cdm', '013303', { name: '商品员', rights: ['commodity.list', 'baseConfig.role'] }, admin));
  const junior = await ok(t.call('cdm', '013303', { name: '账号查看', rights: ['baseConfig.accountManagementList'] }, admin));
  const richAcc = await ok(t.call('cdm', '013403', { userName: 'rich.user', password: 'Rich-user-2026', roleIds: [rich.id] }, admin));
  const juniorAcc = await ok(t.call('cdm', '013403', { userName: 'junior.user', password: 'Junior-2026', roleIds: [junior.id] }, admin));
  const adminRow = await accountRow('admin');
  adminAccount = { kind: 'account', id: adminRow.id, name: 'admin' };
  richAccount = { kind: 'account', id: richAcc.id, name: 'rich.user' };
  juniorAccount = { kind: 'account', id: juniorAcc.id, name: 'junior.user' };
  adminRole = { kind: 'role', id: (await roleByName('管理员')).id, name: '管理员' };
  richRole = { kind: 'role', id: rich.id, name: '商品员' };
  juniorRole = { kind: 'role', id: junior.id, name: '账号查看' };
});
afterAll(async () => t?.close());

/** What a write could change, read straight from the tables (passwords by hash). */
async function snapshot() {
  const db = t.database.db;
  const accounts = await db.selectFrom('account').select(['id', 'userName', 'passwordHash', 'enabled', 'roleIds', 'version']).orderBy('id').execute();
  const roles = await db.selectFrom('role').select(['id', 'name', 'allRights', 'rights', 'version']).orderBy('id').execute();
  return JSON.stringify({ accounts, roles });
}

const version = async (target: Target) => (await ok(t.call('cdm', target.kind === 'account' ? '013402' : '013302', { id: target.id }, admin))).version;

/**
 * Bodies by which a write code could act on a target. Each code of the catalog that writes accounts or
 * roles needs an entry here; a new one fails the coverage test below until it has one.
 */
const ATTACKS: Record<string, (target: Target) => Promise<Array<Record<string, unknown>> | null>> = {
  'resource:account.save': async (a) => a.kind !== 'account' ? null : [
    { id: a.id, version: await version(a), password: 'Takeover-2026!' },
    { id: a.id, version: await version(a), enabled: false },
    { id: a.id, version: await version(a), roleIds: [] },
    { id: a.id, version: await version(a), remark: '改个备注' },
  ],
  'resource:account.remove': async (a) => a.kind !== 'account' ? null : [{ ids: [a.id] }, { id: a.id }],
  'op:account.resetPassword': async (a) => a.kind !== 'account' ? null : [{ id: a.id, password: 'Takeover-2026!' }],
  'op:account.setEnabled': async (a) => a.kind !== 'account' ? null : [{ id: a.id, enabled: false }, { id: a.id, enabled: true }],
  'resource:role.save': async (r) => r.kind !== 'role' ? null : [
    { id: r.id, version: await version(r), name: r.name, allRights: false, rights: [] },
    { id: r.id, version: await version(r), rights: ['baseConfig.role'] },
    { id: r.id, version: await version(r), remark: '改个备注' },
  ],
  'resource:role.remove': async (r) => r.kind !== 'role' ? null : [{ ids: [r.id] }],
};

/** Account and role codes that only read. */
const READS = new Set(['list', 'get', 'export', 'options', 'template', 'members', 'priceTitleOptions']);

function accountAndRoleWrites(): Array<{ family: Family; entry: EndpointEntry }> {
  const catalog = loadCatalog();
  return (Object.entries(catalog.families) as [Family, EndpointEntry[]][]).flatMap(([family, entries]) => entries
    .filter((e) => /^(resource|op):(account|role)\./.test(e.handler) && !READS.has(e.handler.split('.').pop()!))
    .map((entry) => ({ family, entry })));
}

describe('acting on an account or role that holds rights the caller lacks', () => {
  it('knows an attack for every account and role write code in the catalog', () => {
    const writes = accountAndRoleWrites();
    expect(writes.map((w) => w.entry.code).sort()).toEqual(expect.arrayContaining(['013303', '013304', '013403', '013404', '013408', '013409']));
    for (const w of writes) expect(ATTACKS[w.entry.handler], `${w.entry.code} ${w.entry.handler}: add its attack bodies to ATTACKS (or, if it only reads, its op name to READS)`).toBeTypeOf('function');
  });

  it('refuses every such write, naming the target, and changes nothing', async () => {
    let tried = 0;
    for (const { family, entry } of accountAndRoleWrites()) {
      for (const target of [adminAccount, richAccount, adminRole, richRole]) {
        const bodies = await ATTACKS[entry.handler](target);
        if (!bodies) continue;
        for (const body of bodies) {
          const before = await snapshot();
          const r = await t.call(family, entry.code, body, editor);
          const what = `${entry.code} ${entry.name} on ${target.name} with ${JSON.stringify(body)}`;
          expect(r.code, `${what}: ${r.msg}`).toMatch(/^(ACCOUNT_ALL_RIGHTS_4054|ROLE_ALL_RIGHTS_4055|ACCOUNT_RIGHTS_BEYOND_4056|ROLE_RIGHTS_BEYOND_4057)$/);
          expect(r.msg, what).toContain(`“${target.name}”`);
          expect(await snapshot(), what).toBe(before);
          tried++;
        }
      }
    }
    expect(tried).toBeGreaterThanOrEqual(20);
    // The administrator still logs in with the old password.
    await t.login('demo', 'admin', 'demo123');
  });

  it('says which rights the caller lacks, or that all rights are needed', async () => {
    const rich = await t.call('cdm', '013408', { id: richAccount.id, password: 'Takeover-2026!' }, editor);
    expect(rich).toMatchObject({ code: 'ACCOUNT_RIGHTS_BEYOND_4056', msg: '账号“rich.user”拥有您没有的权限（commodity.list），您不能重置该账号的密码' });
    const all = await t.call('cdm', '013409', { id: adminAccount.id, enabled: false }, editor);
    expect(all).toMatchObject({ code: 'ACCOUNT_ALL_RIGHTS_4054', msg: '账号“admin”拥有全部权限，只有拥有全部权限的账号才能停用该账号' });
    const role = await t.call('cdm', '013303', { id: adminRole.id, version: await version(adminRole), name: '管理员', allRights: false, rights: [] }, editor);
    expect(role).toMatchObject({ code: 'ROLE_ALL_RIGHTS_4055', msg: '角色“管理员”拥有全部权限，只有拥有全部权限的账号才能修改该角色' });
  });

  it('refuses changing or deleting a role within its rights while a richer account holds it', async () => {
    const shared = await ok(t.call('cdm', '013303', { name: '共享角色', rights: ['baseConfig.role'] }, admin));
    const holder = await accountRow('rich.user');
    await ok(t.call('cdm', '013403', { id: holder.id, version: holder.version, roleIds: [...holder.roleIds, shared.id] }, admin));
    const before = await snapshot();
    const change = await t.call('cdm', '013303', { id: shared.id, version: shared.version, rights: [] }, editor);
    expect(change).toMatchObject({ code: 'ACCOUNT_RIGHTS_BEYOND_4056', msg: '账号“rich.user”拥有您没有的权限（commodity.list），您不能修改它持有的角色“共享角色”' });
    expect((await t.call('cdm', '013304', { ids: [shared.id] }, editor)).code).toBe('ACCOUNT_RIGHTS_BEYOND_4056');
    expect(await snapshot()).toBe(before);
  });

  it('lets the same caller act on accounts and roles within its own rights', async () => {
    await ok(t.call('cdm', '013408', { id: juniorAccount.id, password: 'Junior-new-2026' }, editor));
    await t.login('demo', 'junior.user', 'Junior-new-2026');
    await ok(t.call('cdm', '013409', { id: juniorAccount.id, enabled: false }, editor));
    await ok(t.call('cdm', '013409', { id: juniorAccount.id, enabled: true }, editor));
    await ok(t.call('cdm', '013403', { id: juniorAccount.id, version: await version(juniorAccount), remark: '由账号管理员维护' }, editor));
    await ok(t.call('cdm', '013303', { id: juniorRole.id, version: await version(juniorRole), rights: ['baseConfig.accountManagementList', 'baseConfig.role'] }, editor));
    await ok(t.call('cdm', '013404', { ids: [juniorAccount.id] }, editor));
    await ok(t.call('cdm', '013304', { ids: [juniorRole.id] }, editor));
  });
});

describe('the last enabled all-rights account of a company', () => {
  let demo2: string;
  let admin2: number;
  let adminRole2: number;

  beforeAll(async () => {
    demo2 = await t.login('demo2', 'admin', 'demo123');
    admin2 = (await ok(t.call('cdm', '013401', { page: 1, filters: { userName: 'admin' } }, demo2))).list[0].id;
    adminRole2 = (await ok(t.call('cdm', '013301', { page: 1, filters: { name: '管理员' } }, demo2))).list[0].id;
  });

  const v2 = async (code: string, id: number, token = demo2) => (await ok(t.call('cdm', code, { id }, token))).version;

  it('cannot be demoted through its roles, nor its role lose all rights', async () => {
    const before = await snapshot();
    const strip = await t.call('cdm', '013403', { id: admin2, version: await v2('013402', admin2), roleIds: [] }, demo2);
    expect(strip).toMatchObject({ code: 'ACCOUNT_LAST_ADMIN_4058', msg: '不能保存：公司至少要保留一个启用的、拥有全部权限的账号' });
    const demote = await t.call('cdm', '013303', { id: adminRole2, version: await v2('013302', adminRole2), allRights: false, rights: ['baseConfig.role'] }, demo2);
    expect(demote.code).toBe('ACCOUNT_LAST_ADMIN_4058');
    expect(await snapshot()).toBe(before);
  });

  it('can be disabled only while another enabled all-rights account remains', async () => {
    const boss = await ok(t.call('cdm', '013403', { userName: 'boss', password: 'Chief-2026-x', roleIds: [adminRole2] }, demo2));
    const bossToken = await t.login('demo2', 'boss', 'Chief-2026-x');
    await ok(t.call('cdm', '013409', { id: admin2, enabled: false }, bossToken));
    // admin is disabled now: boss is the last one and cannot strip itself
    const strip = await t.call('cdm', '013403', { id: boss.id, version: await v2('013402', boss.id, bossToken), roleIds: [] }, bossToken);
    expect(strip.code).toBe('ACCOUNT_LAST_ADMIN_4058');
    // a disabled administrator does not count: the role still cannot lose all rights
    const demote = await t.call('cdm', '013303', { id: adminRole2, version: await v2('013302', adminRole2, bossToken), allRights: false }, bossToken);
    expect(demote.code).toBe('ACCOUNT_LAST_ADMIN_4058');
    await ok(t.call('cdm', '013409', { id: admin2, enabled: true }, bossToken));
    // with admin back, boss may go
    demo2 = await t.login('demo2', 'admin', 'demo123');
    await ok(t.call('cdm', '013404', { ids: [boss.id] }, demo2));
  });

  it('survives two administrators disabling each other at the same moment', async () => {
    const a = await ok(t.call('cdm', '013403', { userName: 'twin.a', password: 'Twin-a-2026', roleIds: [adminRole2] }, demo2));
    const b = await ok(t.call('cdm', '013403', { userName: 'twin.b', password: 'Twin-b-2026', roleIds: [adminRole2] }, demo2));
    const ta = await t.login('demo2', 'twin.a', 'Twin-a-2026');
    const tb = await t.login('demo2', 'twin.b', 'Twin-b-2026');
    // admin steps aside so the twins are the only two
    await ok(t.call('cdm', '013409', { id: admin2, enabled: false }, ta));
    const [ra, rb] = await Promise.all([
      t.call('cdm', '013409', { id: b.id, enabled: false }, ta),
      t.call('cdm', '013409', { id: a.id, enabled: false }, tb),
    ]);
    expect([ra.code, rb.code].filter((c) => c === '200').length, `${ra.code} ${ra.msg} / ${rb.code} ${rb.msg}`).toBe(1);
    const enabledAdmins = (await t.database.db.selectFrom('account').innerJoin('company', 'company.id', 'account.companyId')
      .select(['account.userName']).where('company.code', '=', 'demo2').where('account.enabled', '=', 1).where('account.userName', 'in', ['twin.a', 'twin.b']).execute());
    expect(enabledAdmins).toHaveLength(1);
  });
});
