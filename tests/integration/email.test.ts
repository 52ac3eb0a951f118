// E-mail templates, preview and sending through real SMTP: a local SMTP server (smtp-server on a free port)
// receives what the server sends; every mail lands in the history as sent or failed with the server's
// answer; without SMTP_HOST nothing is sent and nothing recorded.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startTestServer, type TestServer } from './helpers.ts';
import { startSmtp, type TestSmtp } from './smtp.ts';


const TPL = { list: '014301', get: '014302', save: '014303', remove: '014304', export: '014305', options: '014308', previewList: '014309', preview: '014310', send: '014311' };
const HISTORY = { list: '014401', get: '014402', export: '014405', resend: '014403' };

let smtp: TestSmtp;
let t: TestServer;
let demo: string;
let demo2: string;


async function history(server: TestServer, token: string, filters: Record<string, unknown> = {}) {
  return ok(server.call('cdm', HISTORY.list, { page: 1, pageSize: 100, filters }, token));
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

beforeAll(async () => {
  smtp = await startSmtp({ reject: 'bounce' });
  t = await startTestServer({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), SMTP_FROM: 'noreply@demo-trading.example' });
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('templates', () => {
  it('keeps templates with their placeholders, per company', async () => {
    const seeded = await ok(t.call('cdm', TPL.list, { page: 1 }, demo));
    expect(seeded.list.map((r: any) => r.code)).toEqual(['orderConfirm', 'paymentReminder']);
    expect(seeded.list[0].placeholders).toEqual(['orderNo', 'clientName', 'amount', 'deliveryDate', 'companyName']);

    const created = await ok(t.call('cdm', TPL.save, { code: 'welcome', name: '欢迎信', subject: '欢迎 {name}', body: '<p>{name} 您好，账号 {user.id} 已开通。样式 {color: red} 原样保留。</p>' }, demo));
    expect(created).toMatchObject({ format: 'html', enabled: true, placeholders: ['name', 'user.id'] });
    const updated = await ok(t.call('cdm', TPL.save, { id: created.id, version: created.version, format: 'text', remark: '纯文本' }, demo));
    expect(updated).toMatchObject({ version: 2, format: 'text' });
    expect((await t.call('cdm', TPL.save, { code: 'welcome', name: '重复', subject: 's', body: 'b' }, demo)).code).toBe('COMMON_UNIQUE_4011');
    const bad = await t.call('cdm', TPL.save, { code: '1bad code', name: '', subject: '', body: '' }, demo);
    expect(bad.data.errors.map((e: any) => e.field).sort()).toEqual(['body', 'code', 'name', 'subject']);

    const opts = await ok(t.call('cdm', TPL.options, {}, demo));
    expect(opts.map((o: any) => o.label)).toEqual(['订单确认', '付款提醒', '欢迎信']);
    const file = await t.raw('cdm', TPL.export, {}, demo);
    expect(String(file.headers['content-type'])).toContain('spreadsheetml');

    expect((await ok(t.call('cdm', TPL.list, { page: 1 }, demo2))).total).toBe(0);
    expect((await t.call('cdm', TPL.get, { id: created.id }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect(await ok(t.call('cdm', TPL.remove, { id: created.id }, demo))).toEqual({ removed: 1 });
  });
});

describe('preview', () => {
  it('renders placeholders and HTML-escapes values in an HTML body, not in the subject or a text body', async () => {
    const tpl = (await ok(t.call('cdm', TPL.list, { page: 1, filters: { code: 'orderConfirm' } }, demo))).list[0];
    const params = { clientName: '<b>张三 & "李四"</b>', orderNo: 'SO<001>', amount: 1234.5 };
    const p = await ok(t.call('cdm', TPL.preview, { templateId: tpl.id, params }, demo));
    expect(p.subject).toBe('订单确认：SO<001>');
    expect(p.body).toBe('<p>&lt;b&gt;张三 &amp; &quot;李四&quot;&lt;/b&gt;，您好：</p><p>您的订单 <b>SO&lt;001&gt;</b> 已确认，金额 1234.5，预计 {deliveryDate} 发货。</p><p>{companyName}</p>');
    expect(p).toMatchObject({ format: 'html', missing: ['deliveryDate', 'companyName'], smtpConfigured: true });

    // a subject is plain text: a tag in it is removed (the mail client would show it raw), not shown raw
    const tagged = await ok(t.call('cdm', TPL.previewList, { subject: '<b>订单</b> {no} <img src=x onerror=alert(1)>', body: 'b', params: { no: 'SO<001><img src=y>' } }, demo));
    expect(tagged.subject).toBe('订单 SO<001>');
    const text = await ok(t.call('cdm', TPL.previewList, { subject: '提醒 {who}', body: '{who} 请付款 <现在>', format: 'text', params: { who: '<王五>' } }, demo));
    expect(text).toMatchObject({ subject: '提醒 <王五>', body: '<王五> 请付款 <现在>', missing: [], placeholders: ['who'] });

    // explicit subject/body override the template's
    const over = await ok(t.call('cdm', TPL.preview, { templateId: tpl.id, subject: '改过的 {orderNo}', params }, demo));
    expect(over.subject).toBe('改过的 SO<001>');
    expect(over.body).toContain('SO&lt;001&gt;');

    const nothing = await t.call('cdm', TPL.preview, {}, demo);
    expect(nothing.data.errors).toEqual([{ field: 'templateId', message: '请选择邮件模板，或填写邮件主题和正文' }]);
    expect((await t.call('cdm', TPL.preview, { templateId: tpl.id }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    const badParam = await t.call('cdm', TPL.preview, { templateId: tpl.id, params: { name: { nested: true } } }, demo);
    expect(badParam.code).toBe('COMMON_VALIDATION_4000');
  });
});

describe('sending', () => {
  it('sends a template through SMTP and records it as sent', async () => {
    const tpl = (await ok(t.call('cdm', TPL.list, { page: 1, filters: { code: 'orderConfirm' } }, demo))).list[0];
    const before = smtp.messages.length;
    const sent = await ok(t.call('cdm', TPL.send, {
      templateId: tpl.id, to: 'buyer@client.example; boss@client.example', cc: ['sales@demo.example'],
      params: { clientName: '杭州百货 <采购部>', orderNo: 'SO-2026-001', amount: '¥12,345.00', deliveryDate: '2026-03-01', companyName: '演示贸易有限公司' },
    }, demo));
    expect(sent).toMatchObject({ id: expect.any(Number), status: 'sent', messageId: expect.stringContaining('@') });

    const [msg] = (await smtp.waitFor(before + 1)).slice(before);
    expect(msg.to.sort()).toEqual(['boss@client.example', 'buyer@client.example', 'sales@demo.example']);
    expect(msg.from).toBe('noreply@demo-trading.example');
    expect(msg.subject).toBe('订单确认：SO-2026-001');
    expect(msg.contentType).toContain('text/html');
    expect(msg.body).toBe('<p>杭州百货 &lt;采购部&gt;，您好：</p><p>您的订单 <b>SO-2026-001</b> 已确认，金额 ¥12,345.00，预计 2026-03-01 发货。</p><p>演示贸易有限公司</p>');
    expect(msg.headers.get('cc')).toBe('sales@demo.example');
    expect(msg.headers.get('message-id')).toBe(sent.messageId);

    const row = await ok(t.call('cdm', HISTORY.get, { id: sent.id }, demo));
    expect(row).toMatchObject({
      status: 'sent', templateId: tpl.id, templateName: '订单确认', templateCode: 'orderConfirm', recipients: 'buyer@client.example, boss@client.example',
      cc: 'sales@demo.example', subject: '订单确认：SO-2026-001', format: 'html', error: null, sentByName: 'admin', messageId: sent.messageId,
    });
    expect(row.body).toBe(msg.body);
    expect(Date.parse(row.sentAt)).toBeGreaterThanOrEqual(Date.parse(row.queuedAt));
  });

  it('sends a plain-text mail without a template, and keeps header injection out', async () => {
    const before = smtp.messages.length;
    const sent = await ok(t.call('cdm', TPL.send, {
      subject: '对账单 {month}', body: '您好：\n{month} 的对账单见附件说明 <无附件>。', format: 'text',
      to: ['finance@client.example'], params: { month: '2026-02\r\nBcc: evil@attacker.example' },
    }, demo));
    const [msg] = (await smtp.waitFor(before + 1)).slice(before);
    expect(msg.to).toEqual(['finance@client.example']);
    expect(msg.headers.has('bcc')).toBe(false);
    expect(msg.subject).toBe('对账单 2026-02 Bcc: evil@attacker.example');
    expect(msg.contentType).toContain('text/plain');
    expect(msg.body).toBe('您好：\n2026-02\nBcc: evil@attacker.example 的对账单见附件说明 <无附件>。');
    const row = await ok(t.call('cdm', HISTORY.get, { id: sent.id }, demo));
    expect(row).toMatchObject({ templateId: null, templateName: null, format: 'text', status: 'sent' });

    const bad = await t.call('cdm', TPL.send, { subject: 's', body: 'b', to: 'ok@x.example, a@b.com\r\nBcc: x@y.example' }, demo);
    expect(bad.code).toBe('COMMON_VALIDATION_4000');
    expect(bad.data.errors[0].field).toBe('to');
  });

  it('refuses a send with missing parameters, no recipient or a disabled template, recording nothing', async () => {
    const count = (await history(t, demo)).total;
    const tpl = (await ok(t.call('cdm', TPL.list, { page: 1, filters: { code: 'paymentReminder' } }, demo))).list[0];
    const missing = await t.call('cdm', TPL.send, { templateId: tpl.id, to: 'a@b.example', params: { clientName: 'x' } }, demo);
    expect(missing.code).toBe('COMMON_VALIDATION_4000');
    expect(missing.data.errors.map((e: any) => e.field)).toEqual(['params.invoiceNo', 'params.amount', 'params.dueDate', 'params.companyName']);
    expect(missing.msg).toContain('缺少邮件参数“invoiceNo”');
    expect((await t.call('cdm', TPL.send, { templateId: tpl.id, to: '' }, demo)).data.errors).toEqual([{ field: 'to', message: '收件人不能为空' }]);
    expect((await t.call('cdm', TPL.send, { templateId: tpl.id, to: 'not an address' }, demo)).data.errors[0].field).toBe('to');

    const off = await ok(t.call('cdm', TPL.save, { code: 'off', name: '停用模板', subject: 's', body: 'b', enabled: false }, demo));
    const disabled = await t.call('cdm', TPL.send, { templateId: off.id, to: 'a@b.example' }, demo);
    expect(disabled).toMatchObject({ code: 'EMAIL_TEMPLATE_DISABLED_4063', msg: '邮件模板“停用模板”已停用，不能用于发送' });
    // ...but it can still be previewed while being edited
    expect((await ok(t.call('cdm', TPL.previewList, { templateId: off.id }, demo))).subject).toBe('s');
    expect((await t.call('cdm', TPL.send, { templateId: tpl.id, to: 'a@b.example' }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await history(t, demo)).total).toBe(count);
  });

  it('records a rejected mail as failed with the SMTP answer, and resends from the history', async () => {
    const sent = await t.call('cdm', TPL.send, { subject: '退信测试', body: '<p>hi</p>', to: 'bounce@client.example' }, demo);
    expect(sent.code).toBe('EMAIL_SEND_FAILED_4062');
    expect(sent.msg).toMatch(/^邮件发送失败：.*550/);
    const row = await ok(t.call('cdm', HISTORY.get, { id: sent.data.id }, demo));
    expect(row).toMatchObject({ status: 'failed', subject: '退信测试', recipients: 'bounce@client.example' });
    expect(row.error).toContain('550');
    const failed = await history(t, demo, { status: 'failed' });
    expect(failed.list.map((r: any) => r.id)).toContain(sent.data.id);

    const again = await t.call('cdm', HISTORY.resend, { id: sent.data.id }, demo);
    expect(again.code).toBe('EMAIL_SEND_FAILED_4062');
    expect(again.data.id).not.toBe(sent.data.id);

    const good = (await history(t, demo, { status: 'sent' })).list.at(-1);
    const before = smtp.messages.length;
    const resent = await ok(t.call('cdm', HISTORY.resend, { id: good.id }, demo));
    expect(resent.id).not.toBe(good.id);
    const [msg] = (await smtp.waitFor(before + 1)).slice(before);
    expect(msg.subject).toBe(good.subject);
    expect((await ok(t.call('cdm', HISTORY.get, { id: resent.id }, demo)))).toMatchObject({ status: 'sent', subject: good.subject, recipients: good.recipients, body: good.body });
  });

  it('keeps the history per company, readonly and behind its rights', async () => {
    const mine = await history(t, demo);
    expect(mine.total).toBeGreaterThanOrEqual(4);
    expect((await history(t, demo2)).total).toBe(0);
    expect((await t.call('cdm', HISTORY.get, { id: mine.list[0].id }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('cdm', HISTORY.resend, { id: mine.list[0].id }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    const searched = await ok(t.call('cdm', HISTORY.list, { page: 1, keyword: 'finance@client' }, demo));
    expect(searched.list.map((r: any) => r.subject)).toEqual(['对账单 2026-02 Bcc: evil@attacker.example']);
    const file = await t.raw('cdm', HISTORY.export, { filters: { status: 'sent' } }, demo);
    expect(String(file.headers['content-type'])).toContain('spreadsheetml');

    const clerk = await t.login('demo', 'clerk');
    for (const code of [TPL.list, TPL.save, TPL.preview, TPL.send, HISTORY.list, HISTORY.resend]) {
      expect((await t.call('cdm', code, {}, clerk)).code, code).toBe('COMMON_NO_RIGHT_4003');
    }
  });
});

describe('without a mail server', () => {
  it('answers EMAIL_NOT_CONFIGURED_4061 when SMTP_HOST is not set, and records nothing', async () => {
    const s = await startTestServer({ SMTP_HOST: '' });
    try {
      const token = await s.login();
      const r = await s.call('cdm', TPL.send, { subject: '测试', body: '正文', to: 'a@b.example' }, token);
      expect(r).toMatchObject({ code: 'EMAIL_NOT_CONFIGURED_4061', msg: '未配置邮件服务器（SMTP_HOST），无法发送邮件，请联系管理员' });
      expect((await history(s, token)).total).toBe(0);
      // preview still works, and says so
      expect(await ok(s.call('cdm', TPL.preview, { subject: 'a', body: 'b' }, token))).toMatchObject({ subject: 'a', smtpConfigured: false });
    } finally {
      await s.close();
    }
  });

  it('records a failed mail when the server cannot be reached', async () => {
    const s = await startTestServer({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(await closedPort()) });
    try {
      const token = await s.login();
      const r = await s.call('cdm', TPL.send, { subject: '连不上', body: '正文', to: 'a@b.example' }, token);
      expect(r.code).toBe('EMAIL_SEND_FAILED_4062');
      expect(r.msg).toContain('ECONNREFUSED');
      const rows = await history(s, token);
      expect(rows.list).toEqual([expect.objectContaining({ id: r.data.id, status: 'failed', subject: '连不上', error: expect.stringContaining('ECONNREFUSED') })]);
    } finally {
      await s.close();
    }
  });
});
