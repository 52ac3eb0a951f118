// E-mail: templates with {placeholders}, rendering (values HTML-escaped in HTML bodies), and sending
// through the configured SMTP server with a history row per mail (queued → sent | failed).
import nodemailer from 'nodemailer';
import type { CallContext } from '../catalog/context.ts';
import type { ServerConfig } from '../config.ts';
import { bizError, validationError, type FieldError } from '../http/errors.ts';

export type EmailFormat = 'html' | 'text';
export type ParamValue = string | number | boolean | null;

/** `{name}`: a letter or underscore, then letters, digits, `_` or `.`; anything else in braces is literal. */
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_.]{0,63})\}/g;
/** Deliberately narrower than RFC 5322: no spaces, quotes, angle brackets, commas or semicolons. */
const ADDRESS = /^[^\s@<>()[\]\\,;:"']+@[^\s@<>()[\]\\,;:"']+\.[^\s@<>()[\]\\,;:"']+$/;
const MAX_RECIPIENTS = 50;
/** An HTML tag or comment (`<img …>`, `</b>`, `<!-- -->`); `SO<001>` and `<王五>` are text. */
const MARKUP = /<(?:[a-zA-Z][^<>]*|\/[a-zA-Z][^<>]*|!--[\s\S]*?--)>/g;

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Placeholder names used by the texts, in order of first appearance. */
export function placeholdersOf(...texts: string[]): string[] {
  const seen = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(PLACEHOLDER)) seen.add(m[1]!);
  return [...seen];
}

function valueOf(params: Record<string, ParamValue>, name: string): string | undefined {
  if (!Object.prototype.hasOwnProperty.call(params, name)) return undefined;
  const v = params[name];
  return v === null || v === undefined ? undefined : String(v);
}

/** Replaces known placeholders; unknown ones stay as written and are reported as missing. */
export function renderText(text: string, params: Record<string, ParamValue>, html: boolean, missing: Set<string>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const v = valueOf(params, name);
    if (v === undefined) {
      missing.add(name);
      return whole;
    }
    return html ? escapeHtml(v) : v;
  });
}

export interface Rendered {
  subject: string;
  body: string;
  format: EmailFormat;
  placeholders: string[];
  missing: string[];
}

export function renderEmail(subject: string, body: string, format: EmailFormat, params: Record<string, ParamValue>): Rendered {
  const missing = new Set<string>();
  // A subject is one header line: parameters may not smuggle line breaks into it.
  // It is plain text too: markup in it (a tag typed into the template or carried by a value) is removed,
  // so the preview and the recipient's mail client show the same words, never a raw <img …>.
  const renderedSubject = renderText(subject, params, false, missing).replace(MARKUP, '').replace(/[\r\n\t]+/g, ' ').replace(/ {2,}/g, ' ').trim();
  const renderedBody = renderText(body, params, format === 'html', missing);
  return { subject: renderedSubject, body: renderedBody, format, placeholders: placeholdersOf(subject, body), missing: [...missing] };
}

/** `a@x.com; b@y.com` or ['a@x.com', ...] → a checked, de-duplicated list. */
export function parseAddresses(raw: unknown, field: string, title: string, required: boolean): { list: string[]; errors: FieldError[] } {
  const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/[,;，；\s]+/) : raw === undefined || raw === null ? [] : null;
  if (items === null) return { list: [], errors: [{ field, message: `${title}格式不正确` }] };
  const list: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') return { list: [], errors: [{ field, message: `${title}格式不正确` }] };
    const a = item.trim();
    if (!a) continue;
    if (a.length > 254 || !ADDRESS.test(a)) return { list: [], errors: [{ field, message: `${title}中的“${a.slice(0, 60)}”不是有效的邮箱地址` }] };
    if (!list.some((x) => x.toLowerCase() === a.toLowerCase())) list.push(a);
  }
  if (required && !list.length) return { list, errors: [{ field, message: `${title}不能为空` }] };
  if (list.length > MAX_RECIPIENTS) return { list: [], errors: [{ field, message: `${title}最多 ${MAX_RECIPIENTS} 个` }] };
  return { list, errors: [] };
}

export interface OutgoingMail {
  templateId: number | null;
  templateCode: string | null;
  to: string[];
  cc: string[];
  subject: string;
  body: string;
  format: EmailFormat;
}

export interface SendResult {
  id: number;
  status: 'sent';
  messageId: string | null;
  sentAt: string;
}

export function smtpConfigured(config: ServerConfig): boolean {
  return !!config.smtp.host;
}

function transport(config: ServerConfig) {
  const s = config.smtp;
  return nodemailer.createTransport({
    host: s.host,
    port: s.port,
    secure: s.secure,
    auth: s.user ? { user: s.user, pass: s.pass ?? '' } : undefined,
    // A mail server that does not answer must not hold the caller for minutes.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
}

/** Short, single-line text of an SMTP failure for the history and the caller (no stack, no secrets). */
function failureText(e: unknown): string {
  const err = e as { message?: string; response?: string; code?: string };
  const text = err.response || err.message || String(e);
  return text.replace(/\s+/g, ' ').trim().slice(0, 1000) || '未知错误';
}

/**
 * Sends one mail. Refuses (recording nothing) when SMTP_HOST is not configured; otherwise the history row is
 * committed as `queued` before the SMTP exchange and updated to `sent` or `failed` after it, so a failure
 * is recorded with the server's answer even though the call itself reports EMAIL_SEND_FAILED_4062.
 */
export async function sendMail(ctx: CallContext, mail: OutgoingMail): Promise<SendResult> {
  if (!smtpConfigured(ctx.config)) throw bizError('EMAIL_NOT_CONFIGURED_4061');
  const caller = ctx.caller!;
  const queuedAt = new Date().toISOString();
  const inserted = await ctx.tenant.insert('emailHistory', {
    templateId: mail.templateId, templateCode: mail.templateCode, recipients: mail.to.join(', '), cc: mail.cc.length ? mail.cc.join(', ') : null,
    subject: mail.subject, body: mail.body, format: mail.format, status: 'queued', queuedAt, sentBy: caller.accountId, sentByName: caller.userName,
  }).returning('id').executeTakeFirstOrThrow();
  const id = Number(inserted.id);
  const t = transport(ctx.config);
  try {
    const info = await t.sendMail({
      from: { name: caller.company.name, address: ctx.config.smtp.from },
      to: mail.to,
      cc: mail.cc.length ? mail.cc : undefined,
      subject: mail.subject,
      ...(mail.format === 'html' ? { html: mail.body } : { text: mail.body }),
    });
    const sentAt = new Date().toISOString();
    const messageId = typeof info.messageId === 'string' ? info.messageId.slice(0, 300) : null;
    await ctx.tenant.update('emailHistory').set({ status: 'sent', sentAt, messageId, error: null }).where('id', '=', id).execute();
    return { id, status: 'sent', messageId, sentAt };
  } catch (e) {
    const error = failureText(e);
    await ctx.tenant.update('emailHistory').set({ status: 'failed', sentAt: new Date().toISOString(), error }).where('id', '=', id).execute();
    throw bizError('EMAIL_SEND_FAILED_4062', { error }, { id });
  } finally {
    t.close();
  }
}

export function missingParamsError(missing: string[]) {
  return validationError(missing.map((name) => ({ field: `params.${name}`, message: `缺少邮件参数“${name}”` })));
}
