// E-mail from /baseConfig: preview and send a message from a template (or a subject and body typed
// in), and send a recorded message again.
import type { CallContext } from '../../catalog/context.ts';
import { TypedTenant } from '../../db/typed.ts';
import {
  missingParamsError, parseAddresses, renderEmail, sendMail, smtpConfigured,
  type EmailFormat, type OutgoingMail, type ParamValue,
} from '../email.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';

export interface MailInput {
  templateId?: number;
  subject?: string;
  body?: string;
  format?: EmailFormat;
  params?: Record<string, ParamValue>;
  to?: string | string[];
  cc?: string | string[];
}

/** The template (when named) and the subject/body/format to render: explicit subject or body override the template's. */
async function mailSource(ctx: CallContext, input: MailInput, forSending: boolean) {
  const template = input.templateId === undefined ? undefined
    : await TypedTenant.of(ctx.tenant).select('emailTemplate').selectAll().where('id', '=', input.templateId).executeTakeFirst();
  if (input.templateId !== undefined) {
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

export async function previewMail(ctx: CallContext, input: MailInput) {
  const src = await mailSource(ctx, input, false);
  return { ...renderEmail(src.subject, src.body, src.format, input.params ?? {}), smtpConfigured: smtpConfigured(ctx.config) };
}

export async function sendMailFrom(ctx: CallContext, input: MailInput) {
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
}

export async function resendMail(ctx: CallContext, id: number) {
  const row = await TypedTenant.of(ctx.tenant).select('emailHistory').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw bizError('COMMON_NOT_FOUND_4004', { entity: '邮件发送记录' });
  const split = (v: unknown) => String(v ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return sendMail(ctx, {
    templateId: row.templateId == null ? null : Number(row.templateId), templateCode: row.templateCode ?? null,
    to: split(row.recipients), cc: split(row.cc), subject: String(row.subject), body: String(row.body), format: String(row.format) as EmailFormat,
  });
}
