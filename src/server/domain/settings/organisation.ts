// The company's organisation as /baseConfig shows it: the department tree with staff counts, the
// accounts holding a role, the price lists an account may be given, and the default company title
// (公司抬头) of printed documents.
import { sql } from 'kysely';
import type { CallContext } from '../../catalog/context.ts';
import { TypedTenant } from '../../db/typed.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { buildTree } from '../tree.ts';

export async function departmentTree(ctx: CallContext) {
  const tenant = TypedTenant.of(ctx.tenant);
  const rows = await tenant.select('department').select(['id', 'parentId', 'code', 'name', 'sort']).execute();
  const counted = await tenant.select('staff').select(['departmentId', (eb) => eb.fn.countAll().as('n')])
    .where('departmentId', 'is not', null).groupBy('departmentId').execute();
  const counts = new Map(counted.map((c) => [Number(c.departmentId), Number(c.n)]));
  return buildTree(rows, (id) => ({ staffCount: counts.get(id) ?? 0 }));
}

export async function roleMembers(ctx: CallContext, roleId: number) {
  const tenant = TypedTenant.of(ctx.tenant);
  const role = await tenant.select('role').select('id').where('id', '=', roleId).executeTakeFirst();
  if (!role) throw bizError('COMMON_NOT_FOUND_4004', { entity: '角色' });
  // role_ids is a JSON list: the text match narrows, the parsed list decides.
  const rows = await tenant.select('account')
    .leftJoin('staff', (j) => j.onRef('staff.id', '=', 'account.staffId').onRef('staff.companyId', '=', 'account.companyId'))
    .select(['account.id', 'account.userName', 'account.enabled', 'account.roleIds', 'staff.name as staffName'])
    .where('account.roleIds', 'like', `%${roleId}%`).orderBy('account.userName').execute();
  const list = rows
    .filter((r) => (JSON.parse(String(r.roleIds || '[]')) as unknown[]).some((x) => Number(x) === roleId))
    .map((r) => ({ id: Number(r.id), userName: String(r.userName), staffName: r.staffName ?? null, enabled: Number(r.enabled) === 1 }));
  return { list, total: list.length };
}

export async function priceTitleOptions(ctx: CallContext, input: { kind?: 'purchase' | 'sale' | null; keyword?: string | null }) {
  let q = TypedTenant.of(ctx.tenant).select('priceTitle').select(['id', 'code', 'name', 'kind']).where('enabled', '=', 1);
  if (input.kind) q = q.where('kind', '=', input.kind);
  const keyword = input.keyword?.trim();
  if (keyword) {
    const pattern = `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const like = ctx.database.dialect === 'postgres' ? sql`ilike` : sql`like`;
    q = q.where((eb) => eb.or([
      sql<boolean>`${sql.ref('code')} ${like} ${pattern} escape '\\'`, sql<boolean>`${sql.ref('name')} ${like} ${pattern} escape '\\'`,
    ]));
  }
  const rows = await q.orderBy('code').orderBy('id').limit(5000).execute();
  return rows.map((r) => ({ id: Number(r.id), label: String(r.name), code: String(r.code), kind: String(r.kind) }));
}

/** Makes one enabled company title the default: the previous default is cleared in the same transaction. */
export async function setDefaultCompanyRise(ctx: CallContext, id: number) {
  return ctx.transaction(async (db, untypedTenant) => {
    const tenant = TypedTenant.of(untypedTenant);
    const row = await tenant.select('companyRise').select(['id', 'name', 'isDefault', 'enabled']).where('id', '=', id).executeTakeFirst();
    if (!row) throw bizError('COMMON_NOT_FOUND_4004', { entity: '公司抬头' });
    if (Number(row.enabled) !== 1) throw validationError([{ field: 'id', message: `公司抬头“${row.name}”已停用，不能设为默认` }]);
    if (Number(row.isDefault) === 1) return { id, isDefault: true };
    const now = new Date().toISOString();
    const bump = { version: sql<number>`${sql.ref('version')} + 1`, updatedAt: now, updatedBy: ctx.caller!.accountId };
    await tenant.update('companyRise').set({ isDefault: 0, ...bump }).where('isDefault', '=', 1).execute();
    await tenant.update('companyRise').set({ isDefault: 1, ...bump }).where('id', '=', id).execute();
    await ctx.audit({ action: 'update', entity: 'companyRise', recordId: id, recordLabel: String(row.name), changes: [{ field: 'isDefault', title: '默认抬头', from: '否', to: '是' }] }, db);
    return { id, isDefault: true };
  });
}
