// Company settings and flags, rights catalog, account administration, per-user table configuration,
// print settings and print records.
import { COMPANY_FLAGS, parseFlags, type CompanyFlag } from '../../core/flags.ts';
import { clearCallerCache } from '../auth/caller.ts';
import { hashPassword } from '../auth/password.ts';
import { passwordProblem } from '../auth/password-policy.ts';
import { assertCompanyKeepsAdmin, assertMayActOnAccount } from '../auth/rights-guard.ts';
import { endAccountSessions } from '../auth/tokens.ts';
import type { AuditChange, OpHandler } from '../catalog/context.ts';
import { bizError, validationError } from '../http/errors.ts';
import { resolvePrintableDocs } from '../domain/printable-docs.ts';
import type { OpsDeps } from './index.ts';

const MULTIPLE = { type: 'string', pattern: '^\\d{1,3}(\\.\\d{1,4})?$' };
const flagProps = Object.fromEntries(Object.entries(COMPANY_FLAGS).map(([k, title]) => [k, { type: 'boolean', title }]));

function settingsView(row: Record<string, any>) {
  return {
    name: row.name,
    code: row.code,
    timeZone: Number(row.timeZone),
    defaultLanguage: row.defaultLanguage,
    currencyId: row.currencyId,
    receMultiple: String(row.receMultiple),
    limitMultiple: String(row.limitMultiple),
    ceilingMultiple: String(row.ceilingMultiple),
    addRooType: Number(row.addRooType),
    containerTypes: JSON.parse(String(row.containerTypes || '[]')) as string[],
    flags: parseFlags(row.flags),
    version: Number(row.version),
  };
}

const SETTING_TITLES: Record<string, string> = {
  name: '公司名称', timeZone: '时区', defaultLanguage: '默认语言', currencyId: '本位币', receMultiple: '超收倍数',
  limitMultiple: '销售价下限倍数', ceilingMultiple: '销售价上限倍数', addRooType: '加柜方式', containerTypes: '柜型',
};

export function settingsOps(deps: OpsDeps): Record<string, OpHandler> {
  return {
    'company.getSettings': {
      async run(ctx) {
        const row = await ctx.db.selectFrom('company').selectAll().where('id', '=', ctx.caller!.company.id).executeTakeFirstOrThrow();
        return { ...settingsView(row), flagTitles: COMPANY_FLAGS };
      },
    },
    'company.saveSettings': {
      input: {
        type: 'object',
        required: ['version'],
        properties: {
          version: { type: 'integer', title: '版本' },
          name: { type: 'string', minLength: 1, maxLength: 100, title: '公司名称' },
          timeZone: { type: 'integer', minimum: -12, maximum: 14, title: '时区' },
          defaultLanguage: { enum: ['zh-CN', 'en-US'], title: '默认语言' },
          currencyId: { type: 'integer', title: '本位币' },
          receMultiple: { ...MULTIPLE, title: '超收倍数' },
          limitMultiple: { ...MULTIPLE, title: '销售价下限倍数' },
          ceilingMultiple: { ...MULTIPLE, title: '销售价上限倍数' },
          addRooType: { type: 'integer', enum: [0, 1, 2], title: '加柜方式' },
          containerTypes: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 20 }, title: '柜型' },
          flags: { type: 'object', properties: flagProps, additionalProperties: false, title: '公司开关' },
        },
      },
      async run(ctx, input: Record<string, any>) {
        const companyId = ctx.caller!.company.id;
        if (input.currencyId !== undefined) {
          const cur = await ctx.tenant.select('currency').select('id').where('id', '=', input.currencyId).executeTakeFirst();
          if (!cur) throw bizError('COMMON_NOT_FOUND_4004', { entity: '币种' });
        }
        return ctx.transaction(async (db) => {
          const before = await db.selectFrom('company').selectAll().where('id', '=', companyId).executeTakeFirstOrThrow();
          const changes: AuditChange[] = [];
          const set: Record<string, unknown> = {};
          for (const key of Object.keys(SETTING_TITLES)) {
            if (input[key] === undefined) continue;
            const stored = key === 'containerTypes' ? JSON.stringify(input[key]) : input[key];
            const old = before[key];
            if (String(old) !== String(stored)) changes.push({ field: key, title: SETTING_TITLES[key], from: old, to: stored });
            set[key] = stored;
          }
          if (input.flags) {
            const oldFlags = parseFlags(before.flags);
            const next = { ...oldFlags, ...input.flags } as Record<CompanyFlag, boolean>;
            for (const k of Object.keys(COMPANY_FLAGS) as CompanyFlag[]) {
              if (oldFlags[k] !== next[k]) changes.push({ field: `flags.${k}`, title: COMPANY_FLAGS[k], from: oldFlags[k], to: next[k] });
            }
            set.flags = JSON.stringify(next);
          }
          const res = await db.updateTable('company').set({ ...set, version: Number(before.version) + 1, updatedAt: new Date().toISOString() })
            .where('id', '=', companyId).where('version', '=', input.version).executeTakeFirst();
          if (Number(res.numUpdatedRows) !== 1) throw bizError('COMMON_VERSION_CONFLICT_4009', { entity: '公司参数' });
          await ctx.audit({ action: 'update', entity: 'company', recordId: companyId, recordLabel: String(before.name), changes }, db);
          clearCallerCache();
          const after = await db.selectFrom('company').selectAll().where('id', '=', companyId).executeTakeFirstOrThrow();
          return settingsView(after);
        });
      },
    },
    'rights.catalog': {
      async run() {
        return deps.rights;
      },
    },
    'account.resetPassword': {
      input: { type: 'object', required: ['id', 'password'], properties: { id: { type: 'integer', title: '账号' }, password: { type: 'string', minLength: 1, maxLength: 200, title: '新密码' } } },
      async run(ctx, input: { id: number; password: string }) {
        const acc = await ctx.tenant.select('account').select(['id', 'userName', 'roleIds']).where('id', '=', input.id).executeTakeFirst();
        if (!acc) throw bizError('COMMON_NOT_FOUND_4004', { entity: '账号' });
        await assertMayActOnAccount(ctx.caller!, ctx.tenant, acc, '重置该账号的密码');
        const weak = passwordProblem(input.password, { title: '新密码', userName: String(acc.userName) });
        if (weak) throw validationError([{ field: 'password', message: weak }]);
        const passwordHash = await hashPassword(input.password);
        await ctx.transaction(async (db, t) => {
          await t.update('account').set({ passwordHash, passwordChangedAt: new Date().toISOString() }).where('id', '=', input.id).execute();
          await ctx.audit({ action: 'update', entity: 'account', recordId: input.id, recordLabel: String(acc.userName), changes: [{ field: 'password', title: '密码', from: '***', to: '***' }] }, db);
        });
        await endAccountSessions(ctx.db, input.id, 'password-reset');
        return null;
      },
    },
    'account.setEnabled': {
      input: { type: 'object', required: ['id', 'enabled'], properties: { id: { type: 'integer', title: '账号' }, enabled: { type: 'boolean', title: '启用' } } },
      async run(ctx, input: { id: number; enabled: boolean }) {
        const acc = await ctx.tenant.select('account').select(['id', 'userName', 'enabled', 'roleIds']).where('id', '=', input.id).executeTakeFirst();
        if (!acc) throw bizError('COMMON_NOT_FOUND_4004', { entity: '账号' });
        if (input.id === ctx.caller!.accountId && !input.enabled) throw bizError('COMMON_VALIDATION_4000', { detail: '不能停用当前登录的账号' });
        await assertMayActOnAccount(ctx.caller!, ctx.tenant, acc, input.enabled ? '启用该账号' : '停用该账号');
        await ctx.transaction(async (db, t) => {
          await t.update('account').set({ enabled: input.enabled ? 1 : 0, updatedAt: new Date().toISOString() }).where('id', '=', input.id).execute();
          if (!input.enabled) await assertCompanyKeepsAdmin(db, ctx.database.dialect, t.companyId, '停用该账号');
          await ctx.audit({ action: 'update', entity: 'account', recordId: input.id, recordLabel: String(acc.userName), changes: [{ field: 'enabled', title: '启用', from: !!acc.enabled, to: input.enabled }] }, db);
        });
        if (!input.enabled) await endAccountSessions(ctx.db, input.id, 'account-disabled');
        clearCallerCache();
        return null;
      },
    },
    'tableConfig.get': {
      input: { type: 'object', properties: { listName: { type: 'string', maxLength: 100, title: '列表名' } } },
      async run(ctx, input: { listName?: string }) {
        const row = await ctx.tenant.select('tableConfig').select(['configContent', 'updatedAt'])
          .where('accountId', '=', ctx.caller!.accountId).where('listName', '=', input.listName ?? '').executeTakeFirst();
        return { accountId: ctx.caller!.accountId, listName: input.listName ?? '', configContent: row ? String(row.configContent) : null, updatedAt: row?.updatedAt ?? null };
      },
    },
    'tableConfig.save': {
      input: {
        type: 'object', required: ['configContent'],
        properties: { listName: { type: 'string', maxLength: 100, title: '列表名' }, configContent: { type: 'string', maxLength: 65536, title: '列配置' } },
      },
      async run(ctx, input: { listName?: string; configContent: string }) {
        try { JSON.parse(input.configContent); } catch { throw bizError('COMMON_VALIDATION_4000', { detail: '列配置必须是 JSON 文本' }); }
        const accountId = ctx.caller!.accountId;
        const listName = input.listName ?? '';
        const now = new Date().toISOString();
        await ctx.transaction(async (_db, t) => {
          const res = await t.update('tableConfig').set({ configContent: input.configContent, updatedAt: now }).where('accountId', '=', accountId).where('listName', '=', listName).executeTakeFirst();
          if (Number(res.numUpdatedRows) === 0) await t.insert('tableConfig', { accountId, listName, configContent: input.configContent, updatedAt: now }).execute();
        });
        return { accountId, listName, updatedAt: now };
      },
    },
    'printInfo.get': {
      async run(ctx) {
        const row = await ctx.tenant.select('printInfo').selectAll().where('accountId', '=', ctx.caller!.accountId).executeTakeFirst();
        return row ? { warehouseCode: row.warehouseCode, warehouseId: row.warehouseId, ...JSON.parse(String(row.content)) } : null;
      },
    },
    'printInfo.save': {
      input: {
        type: 'object', required: ['warehouseId'],
        properties: {
          warehouseCode: { type: 'string', maxLength: 50, title: '仓库编码' },
          warehouseId: { type: 'integer', title: '仓库' },
          printer: { type: 'string', maxLength: 100, title: '打印机' },
          paper: { type: 'string', maxLength: 50, title: '纸张' },
          copies: { type: 'integer', minimum: 1, maximum: 20, title: '份数' },
        },
      },
      async run(ctx, input: { warehouseCode?: string; warehouseId: number; printer?: string; paper?: string; copies?: number }) {
        const wh = await ctx.tenant.select('warehouse').select(['id', 'code']).where('id', '=', input.warehouseId).executeTakeFirst();
        if (!wh) throw bizError('COMMON_NOT_FOUND_4004', { entity: '仓库' });
        const { warehouseCode: _c, warehouseId: _i, ...rest } = input;
        const accountId = ctx.caller!.accountId;
        const now = new Date().toISOString();
        const values = { warehouseCode: String(wh.code), warehouseId: Number(wh.id), content: JSON.stringify(rest), updatedAt: now };
        await ctx.transaction(async (_db, t) => {
          const res = await t.update('printInfo').set(values).where('accountId', '=', accountId).executeTakeFirst();
          if (Number(res.numUpdatedRows) === 0) await t.insert('printInfo', { ...values, accountId }).execute();
        });
        return { warehouseCode: values.warehouseCode, warehouseId: values.warehouseId, ...rest };
      },
    },
    'printRecord.sign': {
      input: {
        type: 'object', required: ['soIdList', 'docType'],
        properties: {
          soIdList: { type: 'array', minItems: 1, maxItems: 500, items: { type: ['string', 'integer'], minLength: 1, maxLength: 50, minimum: 1 }, title: '单据列表' },
          docType: { type: 'string', minLength: 1, maxLength: 50, pattern: '^[A-Za-z][A-Za-z0-9_]*$', title: '单据类型' },
        },
      },
      async run(ctx, input: { soIdList: Array<string | number>; docType: string }) {
        const now = new Date().toISOString();
        // Only documents of the caller's company, recorded under their numbers; one unknown refuses all.
        const docNos = await resolvePrintableDocs(ctx.tenant, input.docType, input.soIdList);
        await ctx.transaction(async (_db, t) => {
          for (const docId of docNos) {
            // One upsert per document, counted in SQL: two clerks printing at once both count.
            await t.insert('printRecord', { docType: input.docType, docId, printCount: 1, firstPrintedAt: now, lastPrintedAt: now, lastPrintedBy: ctx.caller!.userName })
              .onConflict((oc) => oc.columns(['companyId', 'docType', 'docId']).doUpdateSet((eb) => ({
                printCount: eb('printRecord.printCount', '+', 1), lastPrintedAt: now, lastPrintedBy: ctx.caller!.userName,
              })))
              .execute();
          }
        });
        return { count: docNos.length };
      },
    },
  };
}
