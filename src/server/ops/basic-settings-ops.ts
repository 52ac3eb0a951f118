// Basic settings (/baseConfig) beyond the generic resources: the company's master record, rate history
// for the dynamicExchange chart, role members, the department tree, the default company title, and
// e-mail preview, send and resend. Every query is scoped by the caller's company.
import Decimal from 'decimal.js';
import { buildTree } from '../domain/tree.ts';
import { sql } from 'kysely';
import { clearCallerCache } from '../auth/caller.ts';
import type { AuditChange, CallContext, OpHandler } from '../catalog/context.ts';
import {
  missingParamsError, parseAddresses, renderEmail, sendMail, smtpConfigured,
  type EmailFormat, type OutgoingMail, type ParamValue,
} from '../domain/email.ts';
import { bizError, validationError, type FieldError } from '../http/errors.ts';
import { realDate } from '../resources/fields.ts';
import { checkLogo } from '../resources/settings-hooks.ts';
import type { OpsDeps } from './index.ts';

type Row = Record<string, unknown>;

const MAX_POINTS = 5000;
const idInput = (title: string) => ({ type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, title } } });
const nullableText = (title: string, maxLength: number, extra: Record<string, unknown> = {}) => ({ type: ['string', 'null'], maxLength, title, ...extra });

// ------------------------------------------------------------------------------------- company record

const COMPANY_FIELDS: Record<string, string> = {
  name: '公司名称', nameEn: '英文名称', address: '地址', phone: '电话', email: '邮箱', website: '网址', taxNo: '纳税人识别号', logoId: '标志图片',
};

function companyView(row: Row) {
  return {
    id: Number(row.id),
    code: String(row.code),
    name: String(row.name),
    nameEn: (row.nameEn as string | null) ?? null,
    address: (row.address as string | null) ?? null,
    phone: (row.phone as string | null) ?? null,
    email: (row.email as string | null) ?? null,
    website: (row.website as string | null) ?? null,
    taxNo: (row.taxNo as string | null) ?? null,
    logoId: (row.logoId as string | null) ?? null,
    version: Number(row.version),
    updatedAt: row.updatedAt,
  };
}

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

// ------------------------------------------------------------------------------------- rate history

function parseDay(raw: string | undefined, field: string, title: string, errors: FieldError[]): string | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(String(raw).trim());
  const d = m ? realDate(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
  if (!d) errors.push({ field, message: `${title}不是有效的日期（YYYY-MM-DD）` });
  return d;
}

const rateText = (v: unknown) => new Decimal(String(v)).div(1_000_000).toFixed(6);

// ------------------------------------------------------------------------------------- department tree

const departmentTree = (rows: Row[], counts: Map<number, number>) => buildTree(rows, (id) => ({ staffCount: counts.get(id) ?? 0 }));

// ------------------------------------------------------------------------------------- e-mail

interface MailInput {
  templateId?: number;
  subject?: string;
  body?: string;
  format?: EmailFormat;
  params?: Record<string, ParamValue>;
  to?: string | string[];
  cc?: string | string[];
}

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

/** The template (when named) and the subject/body/format to render: explicit subject or body override the template's. */
async function mailSource(ctx: CallContext, input: MailInput, forSending: boolean) {
  let template: Row | undefined;
  if (input.templateId !== undefined) {
    template = (await ctx.tenant.select('emailTemplate').selectAll().where('id', '=', input.templateId).executeTakeFirst()) as Row | undefined;
    if (!template) throw bizError('COMMON_NOT_FOUND_4004', { entity: '邮件模板' });
    if (forSending && Number(template.enabled) !== 1) throw bizError('EMAIL_TEMPLATE_DISABLED_4063', { name: String(template.name) });
  }
  const subject = input.subject ?? (template ? String(template.subject) : undefined);
  const body = input.body ?? (template ? String(template.body) : undefined);
  const errors: FieldError[] = [];
  if (!template && !subject?.trim() && !body?.trim()) errors.push({ field: 'templateId', message: '请选择邮件模板，或填写邮件主题和正文' });
  else {
    if (!subject?.trim()) errors.push({ field: 'subject', message: '邮件主题不能为空' });
    if (!body?.trim()) errors.push({ field: 'body', message: '邮件正文不能为空' });
  }
  if (errors.length) throw validationError(errors);
  const format = (input.format ?? (template ? String(template.format) : 'html')) as EmailFormat;
  return { template, subject: subject!, body: body!, format };
}

export function basicSettingsOps(_deps: OpsDeps): Record<string, OpHandler> {
  return {
    'company.getInfo': {
      async run(ctx) {
        const row = await ctx.db.selectFrom('company').selectAll().where('id', '=', ctx.caller!.company.id).executeTakeFirstOrThrow();
        return companyView(row as Row);
      },
    },

    'company.saveInfo': {
      input: COMPANY_INPUT,
      async run(ctx, input: Record<string, any>) {
        const companyId = ctx.caller!.company.id;
        const set: Row = {};
        for (const key of Object.keys(COMPANY_FIELDS)) {
          if (input[key] === undefined) continue;
          const v = typeof input[key] === 'string' ? input[key].trim() : input[key];
          set[key] = v === '' ? null : v;
        }
        if (set.name === null) throw validationError([{ field: 'name', message: '公司名称不能为空' }]);
        if (set.logoId) {
          const errors = await checkLogo(ctx.tenant, set.logoId, 'logoId');
          if (errors.length) throw validationError(errors);
        }
        return ctx.transaction(async (db) => {
          const before = (await db.selectFrom('company').selectAll().where('id', '=', companyId).executeTakeFirstOrThrow()) as Row;
          const changes: AuditChange[] = [];
          for (const [k, v] of Object.entries(set)) {
            const old = before[k] ?? null;
            if (String(old ?? '') !== String(v ?? '')) changes.push({ field: k, title: COMPANY_FIELDS[k], from: old, to: v });
          }
          const res = await db.updateTable('company').set({ ...set, version: Number(before.version) + 1, updatedAt: new Date().toISOString() })
            .where('id', '=', companyId).where('version', '=', input.version).executeTakeFirst();
          if (Number(res.numUpdatedRows) !== 1) throw bizError('COMMON_VERSION_CONFLICT_4009', { entity: '公司信息' });
          await ctx.audit({ action: 'update', entity: 'company', recordId: companyId, recordLabel: String(before.name), changes }, db);
          if ('name' in set) clearCallerCache();
          return companyView((await db.selectFrom('company').selectAll().where('id', '=', companyId).executeTakeFirstOrThrow()) as Row);
        });
      },
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
      async run(ctx, input: { currencyId: number; from?: string; to?: string }) {
        const errors: FieldError[] = [];
        const from = parseDay(input.from, 'from', '开始日期', errors);
        const to = parseDay(input.to, 'to', '结束日期', errors);
        if (!errors.length && from && to && from > to) errors.push({ field: 'to', message: '结束日期不能早于开始日期' });
        if (errors.length) throw validationError(errors);
        const currency = await ctx.tenant.select('currency').select(['id', 'isBase']).where('id', '=', input.currencyId).executeTakeFirst();
        if (!currency) throw bizError('COMMON_NOT_FOUND_4004', { entity: '币种' });
        let q = ctx.tenant.select('exchangeRate').select(['rateDate', 'rate']).where('currencyId', '=', input.currencyId);
        if (from) q = q.where('rateDate', '>=', from);
        if (to) q = q.where('rateDate', '<=', to);
        // The most recent points when the range holds more than a chart can use.
        const rows = ((await q.orderBy('rateDate', 'desc').limit(MAX_POINTS).execute()) as Row[]).reverse();
        const points: Array<{ date: string; rate: string; value: number; carried?: boolean }> = rows.map((r) => {
          const rate = rateText(r.rate);
          return { date: String(r.rateDate), rate, value: Number(rate) };
        });
        if (from && points[0]?.date !== from && rows.length < MAX_POINTS) {
          // The rate in force on the first day, so the line starts at the start of the range.
          const before = await ctx.tenant.select('exchangeRate').select(['rateDate', 'rate']).where('currencyId', '=', input.currencyId)
            .where('rateDate', '<', from).orderBy('rateDate', 'desc').limit(1).executeTakeFirst();
          if (before) {
            const rate = rateText(before.rate);
            points.unshift({ date: from, rate, value: Number(rate), carried: true });
          }
        }
        return points;
      },
    },

    'department.tree': {
      async run(ctx) {
        const rows = (await ctx.tenant.select('department').select(['id', 'parentId', 'code', 'name', 'sort']).execute()) as Row[];
        const counted = (await ctx.tenant.select('staff').select(['departmentId', (eb) => eb.fn.countAll().as('n')])
          .where('departmentId', 'is not', null).groupBy('departmentId').execute()) as Row[];
        return departmentTree(rows, new Map(counted.map((c) => [Number(c.departmentId), Number(c.n)])));
      },
    },

    'role.members': {
      input: idInput('角色'),
      async run(ctx, input: { id: number }) {
        const role = await ctx.tenant.select('role').select('id').where('id', '=', input.id).executeTakeFirst();
        if (!role) throw bizError('COMMON_NOT_FOUND_4004', { entity: '角色' });
        // role_ids is a JSON list: the text match narrows, the parsed list decides.
        const rows = (await ctx.tenant.select('account')
          .leftJoin('staff', (j) => j.onRef('staff.id', '=', 'account.staffId').onRef('staff.companyId', '=', 'account.companyId'))
          .select(['account.id', 'account.userName', 'account.enabled', 'account.roleIds', 'staff.name as staffName'])
          .where('account.roleIds', 'like', `%${input.id}%`).orderBy('account.userName').execute()) as Row[];
        const list = rows
          .filter((r) => (JSON.parse(String(r.roleIds || '[]')) as unknown[]).some((x) => Number(x) === input.id))
          .map((r) => ({ id: Number(r.id), userName: String(r.userName), staffName: (r.staffName as string | null) ?? null, enabled: Number(r.enabled) === 1 }));
        return { list, total: list.length };
      },
    },

    'account.priceTitleOptions': {
      input: {
        type: 'object',
        properties: { kind: { enum: ['purchase', 'sale', null], title: '类型' }, keyword: { type: ['string', 'null'], maxLength: 100, title: '关键字' } },
      },
      async run(ctx, input: { kind?: 'purchase' | 'sale' | null; keyword?: string | null }) {
        let q = ctx.tenant.select('priceTitle').select(['id', 'code', 'name', 'kind']).where('enabled', '=', 1);
        if (input.kind) q = q.where('kind', '=', input.kind);
        const keyword = input.keyword?.trim();
        if (keyword) {
          const pattern = `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
          const like = ctx.database.dialect === 'postgres' ? sql`ilike` : sql`like`;
          q = q.where((eb) => eb.or([
            sql<boolean>`${sql.ref('code')} ${like} ${pattern} escape '\\'`, sql<boolean>`${sql.ref('name')} ${like} ${pattern} escape '\\'`,
          ]) as never);
        }
        const rows = (await q.orderBy('code').orderBy('id').limit(5000).execute()) as Row[];
        return rows.map((r) => ({ id: Number(r.id), label: String(r.name), code: String(r.code), kind: String(r.kind) }));
      },
    },

    'companyRise.setDefault': {
      input: idInput('公司抬头'),
      async run(ctx, input: { id: number }) {
        return ctx.transaction(async (db, tenant) => {
          const row = (await tenant.select('companyRise').select(['id', 'name', 'isDefault', 'enabled']).where('id', '=', input.id).executeTakeFirst()) as Row | undefined;
          if (!row) throw bizError('COMMON_NOT_FOUND_4004', { entity: '公司抬头' });
          if (Number(row.enabled) !== 1) throw validationError([{ field: 'id', message: `公司抬头“${row.name}”已停用，不能设为默认` }]);
          if (Number(row.isDefault) === 1) return { id: input.id, isDefault: true };
          const now = new Date().toISOString();
          const bump = { version: sql`${sql.ref('version')} + 1`, updatedAt: now, updatedBy: ctx.caller!.accountId };
          await tenant.update('companyRise').set({ isDefault: 0, ...bump }).where('isDefault', '=', 1).execute();
          await tenant.update('companyRise').set({ isDefault: 1, ...bump }).where('id', '=', input.id).execute();
          await ctx.audit({ action: 'update', entity: 'companyRise', recordId: input.id, recordLabel: String(row.name), changes: [{ field: 'isDefault', title: '默认抬头', from: '否', to: '是' }] }, db);
          return { id: input.id, isDefault: true };
        });
      },
    },

    'email.preview': {
      input: { type: 'object', properties: MAIL_PROPS },
      async run(ctx, input: MailInput) {
        const src = await mailSource(ctx, input, false);
        return { ...renderEmail(src.subject, src.body, src.format, input.params ?? {}), smtpConfigured: smtpConfigured(ctx.config) };
      },
    },

    'email.send': {
      input: { type: 'object', required: ['to'], properties: { ...MAIL_PROPS, to: ADDRESS_LIST('收件人'), cc: ADDRESS_LIST('抄送') } },
      async run(ctx, input: MailInput) {
        const to = parseAddresses(input.to, 'to', '收件人', true);
        const cc = parseAddresses(input.cc, 'cc', '抄送', false);
        if (to.errors.length || cc.errors.length) throw validationError([...to.errors, ...cc.errors]);
        const src = await mailSource(ctx, input, true);
        const rendered = renderEmail(src.subject, src.body, src.format, input.params ?? {});
        if (rendered.missing.length) throw missingParamsError(rendered.missing);
        if (!rendered.subject) throw validationError([{ field: 'subject', message: '邮件主题不能为空' }]);
        const mail: OutgoingMail = {
          templateId: src.template ? Number(src.template.id) : null, templateCode: src.template ? String(src.template.code) : null,
          to: to.list, cc: cc.list, subject: rendered.subject, body: rendered.body, format: rendered.format,
        };
        return sendMail(ctx, mail);
      },
    },

    'email.resend': {
      input: idInput('邮件发送记录'),
      async run(ctx, input: { id: number }) {
        const row = (await ctx.tenant.select('emailHistory').selectAll().where('id', '=', input.id).executeTakeFirst()) as Row | undefined;
        if (!row) throw bizError('COMMON_NOT_FOUND_4004', { entity: '邮件发送记录' });
        const split = (v: unknown) => String(v ?? '').split(',').map((s) => s.trim()).filter(Boolean);
        return sendMail(ctx, {
          templateId: row.templateId == null ? null : Number(row.templateId), templateCode: (row.templateCode as string | null) ?? null,
          to: split(row.recipients), cc: split(row.cc), subject: String(row.subject), body: String(row.body), format: String(row.format) as EmailFormat,
        });
      },
    },
  };
}
