// What a few resources do beyond the generic rules: account sessions and rights escalation, price list
// kinds, product pack sizes and images, plan dates, audit-log entity names.
import type { CallContext } from '../catalog/context.ts';
import type { Tenant } from '../catalog/tenant.ts';
import type { DB } from '../db/connection.ts';
import { assertCompanyKeepsAdmin, assertMayActOnAccount, assertMayActOnRole, assertMayActOnRoleMembers } from '../auth/rights-guard.ts';
import { endAccountSessions } from '../auth/tokens.ts';
import { clearCallerCache } from '../auth/caller.ts';
import { bizError, type FieldError } from '../http/errors.ts';
import type { Row } from './query.ts';
import type { Resource, ResourceRegistry } from './types.ts';
import { SETTINGS_HOOKS } from './settings-hooks.ts';
import { MASTER_DATA_HOOKS } from './master-data-hooks.ts';
import { allDocumentDefinitions } from '../documents/index.ts';
import { STOCK_HOOKS } from '../domain/stock/locations.ts';
import { PROMOTION_HOOKS } from '../domain/sales/promotions.ts';

export interface SaveEvent {
  ctx: CallContext;
  db: DB;
  tenant: Tenant;
  resource: Resource;
  /** null while creating */
  id: number | string | null;
  /** the stored row before the write (column names), null on create */
  before: Row | null;
  /** stored values after the write, by field name (unchanged fields from `before`) */
  merged: Row;
  /** stored values this write sets, by field name (a password field holds its new hash) */
  values: Row;
}

export interface ResourceHooks {
  /**
   * Server-derived field values (readonly fields) computed from the merged row, e.g. a location's lookup
   * key from its code. Applied on save and import before the checks, so unique keys see them.
   */
  derive?(e: { merged: Row }): Row;
  /** Extra checks after the field rules; returned errors become a validation failure. */
  validate?(e: SaveEvent): Promise<FieldError[]>;
  /** Extra columns written with the row (e.g. a stamp when the password changes). */
  extraColumns?(e: SaveEvent): Row;
  /** After the row is written, in the same transaction. */
  afterSave?(e: SaveEvent & { id: number | string }): Promise<void>;
  /** Whether the caller may delete these rows at all: before any other check, in the same transaction. */
  authorizeRemove?(ctx: CallContext, tenant: Tenant, rows: Row[]): Promise<void>;
  /** Before rows are deleted (after reference checks), in the same transaction. */
  beforeRemove?(ctx: CallContext, db: DB, tenant: Tenant, rows: Row[]): Promise<void>;
  /**
   * After every write of the resource — save, import, remove — in the same transaction, once per call:
   * checks that hold for the company as a whole (a throw rolls the whole write back).
   */
  afterWrite?(e: { ctx: CallContext; db: DB; tenant: Tenant; op: 'save' | 'import' | 'remove' }): Promise<void>;
  /** Adds computed properties to exposed rows (list, get, export). */
  decorate?(rows: Row[], reg: ResourceRegistry): void;
}

const isOn = (v: unknown) => v === 1 || v === true || v === '1';
const WRITE_ACTION = { save: '保存', import: '导入', remove: '删除' } as const;

async function priceTitleKind(tenant: Tenant, id: unknown): Promise<string | undefined> {
  if (id === null || id === undefined) return undefined;
  const row = await tenant.select('priceTitle').select('kind').where('id', '=', id as number).executeTakeFirst();
  return row ? String(row.kind) : undefined;
}

function parseList(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v !== 'string') return [];
  try { const p = JSON.parse(v); return Array.isArray(p) ? p : []; } catch { return []; }
}

/** What the audit log names things that are neither a resource nor a document type (操作日志's 对象). */
const OTHER_AUDITED: Record<string, string> = {
  productPrice: '商品价格', fileShare: '分享链接', wallLink: '大屏链接', dailyClosing: '日结', media: '文件',
  container: '货柜', containerWithdrawing: '卸柜记录', company: '公司', repeal: '采购撤销单', salesRepeal: '销售撤销单',
};

export const HOOKS: Record<string, ResourceHooks> = {
  account: {
    async validate({ ctx, tenant, id, before, merged, values }) {
      const errors: FieldError[] = [];
      const caller = ctx.caller!;
      if (id !== null && Number(id) === caller.accountId && 'enabled' in values && !isOn(values.enabled)) throw bizError('ACCOUNT_SELF_4052');
      // Changing an account (its password, state, roles, anything) needs every right it holds.
      if (before) await assertMayActOnAccount(caller, tenant, { userName: before.userName, roleIds: before.roleIds }, '修改该账号');
      if ('purchasePriceId' in values && values.purchasePriceId != null && (await priceTitleKind(tenant, values.purchasePriceId)) !== 'purchase') {
        errors.push({ field: 'purchasePriceId', message: '默认采购价格表必须是采购价类型' });
      }
      if ('salePriceId' in values && values.salePriceId != null && (await priceTitleKind(tenant, values.salePriceId)) !== 'sale') {
        errors.push({ field: 'salePriceId', message: '默认销售价格表必须是销售价类型' });
      }
      // No privilege escalation: a caller without all rights cannot hand out roles holding more than it has.
      if (!caller.allRights && 'roleIds' in values) {
        const had = new Set(parseList(before?.roleIds).map(Number));
        const added = parseList(merged.roleIds).map(Number).filter((r) => !had.has(r));
        if (added.length) {
          const roles = await tenant.select('role').select(['name', 'allRights', 'rights']).where('id', 'in', added).execute();
          for (const role of roles) {
            const beyond = isOn(role.allRights) || parseList(role.rights).some((code) => !caller.rights.has(String(code)));
            if (beyond) errors.push({ field: 'roleIds', message: `角色“${role.name}”包含您没有的权限，不能分配` });
          }
        }
      }
      return errors;
    },
    extraColumns({ values }) {
      return 'password' in values ? { passwordChangedAt: new Date().toISOString() } : {};
    },
    async afterSave({ db, id, before, values }) {
      if (!before) return;
      // its roles, warehouse or state may have changed: every session of it (a wall's too) is rebuilt on its next call
      clearCallerCache();
      if ('password' in values) await endAccountSessions(db, Number(id), 'password-changed');
      else if ('enabled' in values && isOn(before.enabled) && !isOn(values.enabled)) await endAccountSessions(db, Number(id), 'account-disabled');
    },
    async authorizeRemove(ctx, tenant, rows) {
      for (const row of rows) await assertMayActOnAccount(ctx.caller!, tenant, { userName: row.userName, roleIds: row.roleIds }, '删除该账号');
    },
    async beforeRemove(ctx, db, tenant, rows) {
      const ids = rows.map((r) => Number(r.id));
      if (ids.includes(ctx.caller!.accountId)) throw bizError('ACCOUNT_SELF_4052');
      // Sessions, column settings and print settings belong to the account and go with it.
      const sessions = tenant.select('authSession').select('authSession.id').where('accountId', 'in', ids);
      await db.deleteFrom('authToken').where('sessionId', 'in', sessions).execute();
      await tenant.delete('authSession').where('accountId', 'in', ids).execute();
      await tenant.delete('tableConfig').where('accountId', 'in', ids).execute();
      await tenant.delete('printInfo').where('accountId', 'in', ids).execute();
      for (const id of ids) await endAccountSessions(db, id, 'account-removed');
    },
    afterWrite: ({ ctx, db, tenant, op }) => assertCompanyKeepsAdmin(db, ctx.database.dialect, tenant.companyId, WRITE_ACTION[op]),
  },
  role: {
    async validate({ ctx, tenant, before, merged }) {
      const caller = ctx.caller!;
      // the installation-wide rights a company other than the operator's never holds (auth/operator.ts): the
      // role editor does not offer them, and a role of such a company cannot be given them by any caller
      const installationWide = parseList(merged.rights).map(String).filter((c) => caller.withheld.has(c));
      if (installationWide.length) return [{ field: 'rights', message: `以下权限只属于运营方公司，本公司的角色不能持有：${installationWide.slice(0, 5).join('、')}${installationWide.length > 5 ? ' 等' : ''}` }];
      if (caller.allRights) return [];
      // Changing a role changes every account holding it: it needs every right the role holds now.
      if (before) {
        assertMayActOnRole(caller, before, '修改该角色');
        await assertMayActOnRoleMembers(caller, tenant, before, '修改');
      }
      const errors: FieldError[] = [];
      if (isOn(merged.allRights) && !isOn(before?.allRights)) errors.push({ field: 'allRights', message: '您没有全部权限，不能授予全部权限' });
      const had = new Set(parseList(before?.rights).map(String));
      const beyond = parseList(merged.rights).map(String).filter((c) => !had.has(c) && !caller.rights.has(c));
      if (beyond.length) errors.push({ field: 'rights', message: `不能授予您自己没有的权限：${beyond.slice(0, 5).join('、')}${beyond.length > 5 ? ' 等' : ''}` });
      return errors;
    },
    async authorizeRemove(ctx, tenant, rows) {
      for (const row of rows) {
        assertMayActOnRole(ctx.caller!, row, '删除该角色');
        await assertMayActOnRoleMembers(ctx.caller!, tenant, row, '删除');
      }
    },
    async afterWrite({ ctx, db, tenant, op }) {
      await assertCompanyKeepsAdmin(db, ctx.database.dialect, tenant.companyId, WRITE_ACTION[op]);
      // the rights of every account holding the role changed: their sessions, and the walls their makers
      // opened, hold the new rights from their next call (another process within its 1 s caller cache)
      clearCallerCache();
    },
  },
  product: {
    async validate({ tenant, values, merged }) {
      const errors: FieldError[] = [];
      const mid = Number(merged.midQty ?? 1);
      const big = Number(merged.bigQty ?? 1);
      if (('midQty' in values || 'bigQty' in values) && mid > 0 && big % mid !== 0) {
        errors.push({ field: 'bigQty', message: '大包装数量必须是中包装数量的整数倍' });
      }
      if (values.imageId) {
        const media = await tenant.select('media').select('id').where('id', '=', values.imageId as string).executeTakeFirst();
        if (!media) errors.push({ field: 'imageId', message: '图片不存在，请重新上传' });
      }
      return errors;
    },
  },
  presalePlan: {
    async validate({ merged }) {
      if (merged.startDate && merged.endDate && String(merged.endDate) < String(merged.startDate)) {
        return [{ field: 'endDate', message: '结束日期不能早于开始日期' }];
      }
      return [];
    },
  },
  presaleWhitelist: {
    async validate({ merged }) {
      if (merged.validFrom && merged.validTo && String(merged.validTo) < String(merged.validFrom)) {
        return [{ field: 'validTo', message: '失效日期不能早于生效日期' }];
      }
      return [];
    },
  },
  auditLog: {
    decorate(rows, reg) {
      // documents (销售订单, 收付款单, 期初余额…) log under their type, which is no resource: their title too
      const documentTitles = new Map(allDocumentDefinitions().map((d) => [d.type, d.title]));
      for (const row of rows) {
        const entity = String(row.entity);
        row.entityTitle = reg.get(entity)?.title ?? documentTitles.get(entity) ?? OTHER_AUDITED[entity] ?? row.entity;
      }
    },
  },
  ...SETTINGS_HOOKS,
  ...MASTER_DATA_HOOKS,
  ...STOCK_HOOKS,
  ...PROMOTION_HOOKS,
};
