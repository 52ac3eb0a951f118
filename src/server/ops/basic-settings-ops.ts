// Basic settings (/baseConfig) beyond the generic resources — the company's master record, rate history
// for the dynamicExchange chart, role members, the department tree, price-list options, the default
// company title, and e-mail preview, send and resend: the binding only — input schemas and the calls
// into src/server/domain/settings/ and domain/master-data/exchange-rates.ts.
import type { OpHandler } from '../catalog/context.ts';
import { rateHistory, type RateHistoryInput } from '../domain/master-data/exchange-rates.ts';
import { companyInfo, saveCompanyInfo, type CompanyInfoInput } from '../domain/settings/company-info.ts';
import { previewMail, resendMail, sendMailFrom, type MailInput } from '../domain/settings/mail.ts';
import { departmentTree, priceTitleOptions, roleMembers, setDefaultCompanyRise } from '../domain/settings/organisation.ts';
import type { OpsDeps } from './index.ts';

const idInput = (title: string) => ({ type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, title } } });
const nullableText = (title: string, maxLength: number, extra: Record<string, unknown> = {}) => ({ type: ['string', 'null'], maxLength, title, ...extra });

const COMPANY_INPUT = {
  type: 'object',
  required: ['version'],
  properties: {
    version: { type: 'integer', minimum: 1, title: '版本' },
    name: { type: 'string', minLength: 1, maxLength: 100, title: '公司名称' },
    nameEn: nullableText('英文名称', 200),
    address: nullableText('地址', 200),
    phone: nullableText('电话', 50),
    email: nullableText('邮箱', 100, { pattern: '^$|^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$' }),
    website: nullableText('网址', 200, { pattern: '^$|^(https?://)?[^\\s<>"]+$' }),
    taxNo: nullableText('纳税人识别号', 30, { pattern: '^$|^[0-9A-Za-z-]+$' }),
    logoId: nullableText('标志图片', 64, { pattern: '^$|^[A-Za-z0-9_-]+$' }),
  },
};

const ADDRESS_LIST = (title: string) => ({
  type: ['string', 'array'], maxLength: 10_000, maxItems: 100, items: { type: 'string', maxLength: 254 }, title,
});

const MAIL_PROPS = {
  templateId: { type: 'integer', minimum: 1, title: '邮件模板' },
  subject: { type: 'string', maxLength: 200, title: '邮件主题' },
  body: { type: 'string', maxLength: 100_000, title: '邮件正文' },
  format: { enum: ['html', 'text'], title: '正文格式' },
  params: {
    type: 'object', maxProperties: 200, title: '邮件参数',
    propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_.]{0,63}$' },
    additionalProperties: { type: ['string', 'number', 'boolean', 'null'], maxLength: 20_000 },
  },
};

export function basicSettingsOps(_deps: OpsDeps): Record<string, OpHandler> {
  return {
    'company.getInfo': { run: (ctx) => companyInfo(ctx) },

    'company.saveInfo': {
      input: COMPANY_INPUT,
      run: (ctx, input: CompanyInfoInput) => saveCompanyInfo(ctx, input),
    },

    'exchangeRate.history': {
      input: {
        type: 'object', required: ['currencyId'],
        properties: {
          currencyId: { type: 'integer', minimum: 1, title: '币种' },
          from: { type: ['string', 'null'], maxLength: 10, title: '开始日期' },
          to: { type: ['string', 'null'], maxLength: 10, title: '结束日期' },
        },
      },
      run: (ctx, input: RateHistoryInput) => rateHistory(ctx, input),
    },

    'department.tree': { run: (ctx) => departmentTree(ctx) },

    'role.members': {
      input: idInput('角色'),
      run: (ctx, input: { id: number }) => roleMembers(ctx, input.id),
    },

    'account.priceTitleOptions': {
      input: {
        type: 'object',
        properties: { kind: { enum: ['purchase', 'sale', null], title: '类型' }, keyword: { type: ['string', 'null'], maxLength: 100, title: '关键字' } },
      },
      run: (ctx, input: { kind?: 'purchase' | 'sale' | null; keyword?: string | null }) => priceTitleOptions(ctx, input),
    },

    'companyRise.setDefault': {
      input: idInput('公司抬头'),
      run: (ctx, input: { id: number }) => setDefaultCompanyRise(ctx, input.id),
    },

    'email.preview': {
      input: { type: 'object', properties: MAIL_PROPS },
      run: (ctx, input: MailInput) => previewMail(ctx, input),
    },

    'email.send': {
      input: { type: 'object', required: ['to'], properties: { ...MAIL_PROPS, to: ADDRESS_LIST('收件人'), cc: ADDRESS_LIST('抄送') } },
      run: (ctx, input: MailInput) => sendMailFrom(ctx, input),
    },

    'email.resend': {
      input: idInput('邮件发送记录'),
      run: (ctx, input: { id: number }) => resendMail(ctx, input.id),
    },
  };
}
