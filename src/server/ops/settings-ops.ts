// Company settings and flags, rights catalog, account administration, per-user table configuration,
// print settings and print records: the binding only — input schemas and the calls into
// src/server/domain/settings/.
import { COMPANY_FLAGS } from '../../core/flags.ts';
import type { OpHandler } from '../catalog/context.ts';
import { resetAccountPassword, setAccountEnabled } from '../domain/settings/accounts.ts';
import { companySettings, saveCompanySettings, type SettingsInput } from '../domain/settings/company-settings.ts';
import { signPrinted } from '../domain/settings/print-records.ts';
import { printSettingsOf, savePrintSettings, saveTableConfig, tableConfigOf, type PrintSettings } from '../domain/settings/user-preferences.ts';
import type { OpsDeps } from './index.ts';

const MULTIPLE = { type: 'string', pattern: '^\\d{1,3}(\\.\\d{1,4})?$' };
const flagProps = Object.fromEntries(Object.entries(COMPANY_FLAGS).map(([k, title]) => [k, { type: 'boolean', title }]));

export function settingsOps(deps: OpsDeps): Record<string, OpHandler> {
  return {
    'company.getSettings': { run: (ctx) => companySettings(ctx) },
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
      run: (ctx, input: SettingsInput) => saveCompanySettings(ctx, input),
    },
    // (a company that does not run the installation is not offered the instance tools' rights: auth/operator.ts)
    'rights.catalog': { run: async (ctx) => deps.rights.filter((r) => !ctx.caller!.withheld.has(r.code)) },
    'account.resetPassword': {
      input: { type: 'object', required: ['id', 'password'], properties: { id: { type: 'integer', title: '账号' }, password: { type: 'string', minLength: 1, maxLength: 200, title: '新密码' } } },
      run: (ctx, input: { id: number; password: string }) => resetAccountPassword(ctx, input.id, input.password),
    },
    'account.setEnabled': {
      input: { type: 'object', required: ['id', 'enabled'], properties: { id: { type: 'integer', title: '账号' }, enabled: { type: 'boolean', title: '启用' } } },
      run: (ctx, input: { id: number; enabled: boolean }) => setAccountEnabled(ctx, input.id, input.enabled),
    },
    'tableConfig.get': {
      input: { type: 'object', properties: { listName: { type: 'string', maxLength: 100, title: '列表名' } } },
      run: (ctx, input: { listName?: string }) => tableConfigOf(ctx, input.listName ?? ''),
    },
    'tableConfig.save': {
      input: {
        type: 'object', required: ['configContent'],
        properties: { listName: { type: 'string', maxLength: 100, title: '列表名' }, configContent: { type: 'string', maxLength: 65536, title: '列配置' } },
      },
      run: (ctx, input: { listName?: string; configContent: string }) => saveTableConfig(ctx, input.listName ?? '', input.configContent),
    },
    'printInfo.get': { run: (ctx) => printSettingsOf(ctx) },
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
      run: (ctx, input: PrintSettings) => savePrintSettings(ctx, input),
    },
    'printRecord.sign': {
      input: {
        type: 'object', required: ['soIdList', 'docType'],
        properties: {
          soIdList: { type: 'array', minItems: 1, maxItems: 500, items: { type: ['string', 'integer'], minLength: 1, maxLength: 50, minimum: 1 }, title: '单据列表' },
          docType: { type: 'string', minLength: 1, maxLength: 50, pattern: '^[A-Za-z][A-Za-z0-9_]*$', title: '单据类型' },
        },
      },
      run: (ctx, input: { soIdList: Array<string | number>; docType: string }) => signPrinted(ctx, input.docType, input.soIdList),
    },
  };
}
