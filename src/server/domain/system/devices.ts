// 客户设备 / 销售设备 (cdm 019806–019807): the devices staff log in from, per account — a device is one
// browser (user agent) of one account, read from the login sessions: browser, system, the last IP, first
// and last login, sessions in all and still open. 销售设备 shows the accounts whose roles grant a sales
// right (market.*, not 管理员's "all rights"); 客户设备 every account of the company. An administrator ends a
// device's open sessions: its next call answers 5011 (logged out) and the user logs in again.
import crypto from 'node:crypto';
import { endSession } from '../../auth/tokens.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import { bizError } from '../../http/errors.ts';
import { TypedTenant } from '../../db/typed.ts';

export function deviceOf(ua: string): { browser: string; system: string } {
  const v = (re: RegExp) => re.exec(ua)?.[1]?.split('.')[0];
  let browser = '其他';
  if (/MicroMessenger\/([\d.]+)/.test(ua)) browser = `微信 ${v(/MicroMessenger\/([\d.]+)/)}`;
  else if (/Edg\/([\d.]+)/.test(ua)) browser = `Edge ${v(/Edg\/([\d.]+)/)}`;
  else if (/Firefox\/([\d.]+)/.test(ua)) browser = `Firefox ${v(/Firefox\/([\d.]+)/)}`;
  else if (/(?:HeadlessChrome|Chrome|Chromium)\/([\d.]+)/.test(ua)) browser = `${/HeadlessChrome/.test(ua) ? 'Chrome（无界面）' : 'Chrome'} ${v(/(?:HeadlessChrome|Chrome|Chromium)\/([\d.]+)/)}`;
  else if (/Version\/([\d.]+).*Safari/.test(ua)) browser = `Safari ${v(/Version\/([\d.]+)/)}`;
  else if (/^node|undici|axios|curl|lightMyRequest/i.test(ua)) browser = '程序调用';
  let system = '其他';
  if (/Windows NT 10/.test(ua)) system = 'Windows 10/11';
  else if (/Windows/.test(ua)) system = 'Windows';
  else if (/iPhone|iPad/.test(ua)) system = /iPad/.test(ua) ? 'iPadOS' : 'iOS';
  else if (/Android ([\d.]+)/.test(ua)) system = `Android ${v(/Android ([\d.]+)/)}`;
  else if (/Mac OS X/.test(ua)) system = 'macOS';
  else if (/Linux/.test(ua)) system = 'Linux';
  return { browser, system };
}

const uaKey = (ua: string) => crypto.createHash('sha1').update(ua).digest('hex').slice(0, 12);

export const DEVICE_LIST_INPUT: InputSchema = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 20, title: '每页条数' },
    keyword: { type: ['string', 'null'], maxLength: 50, title: '关键字' },
    scope: { enum: ['all', 'sales'], default: 'all', title: '范围' },
    onlyOpen: { type: ['boolean', 'null'], title: '只看在线' },
    sort: { type: ['object', 'null'] },
  },
};

interface Device {
  id: string; accountId: number; userName: string; staffName: string | null; browser: string; system: string; userAgent: string;
  lastIp: string | null; firstSeen: string; lastSeen: string; sessions: number; open: number;
}

async function salesAccounts(ctx: CallContext): Promise<Set<number>> {
  const tenant = TypedTenant.of(ctx.tenant);
  const roles = await tenant.select('role').select(['id', 'allRights', 'rights']).execute();
  const sales = new Set(roles.filter((r) => !Number(r.allRights) && (JSON.parse(String(r.rights || '[]')) as string[]).some((c) => c.startsWith('market.'))).map((r) => Number(r.id)));
  const accounts = await tenant.select('account').select(['id', 'roleIds']).execute();
  return new Set(accounts.filter((a) => (JSON.parse(String(a.roleIds || '[]')) as number[]).some((id) => sales.has(Number(id)))).map((a) => Number(a.id)));
}

async function devices(ctx: CallContext, scope: 'all' | 'sales'): Promise<Device[]> {
  const sessionEnds = new Date(Date.now() - ctx.config.sessionMaxAgeSec * 1000).toISOString();
  const rows = await TypedTenant.of(ctx.tenant).select('authSession').innerJoin('account', 'account.id', 'authSession.accountId')
    .leftJoin('staff', 'staff.id', 'account.staffId')
    .select(['authSession.id', 'authSession.accountId', 'authSession.createdAt', 'authSession.ip', 'authSession.userAgent', 'authSession.endedAt', 'account.userName', 'staff.name as staffName'])
    .orderBy('authSession.createdAt', 'asc').execute();
  const only = scope === 'sales' ? await salesAccounts(ctx) : null;
  const byDevice = new Map<string, Device>();
  for (const r of rows) {
    const accountId = Number(r.accountId);
    if (only && !only.has(accountId)) continue;
    const ua = String(r.userAgent ?? '');
    const id = `${accountId}-${uaKey(ua)}`;
    let d = byDevice.get(id);
    if (!d) {
      byDevice.set(id, (d = { id, accountId, userName: String(r.userName), staffName: r.staffName ?? null, ...deviceOf(ua), userAgent: ua, lastIp: null, firstSeen: String(r.createdAt), lastSeen: String(r.createdAt), sessions: 0, open: 0 }));
    }
    d.sessions++;
    d.lastSeen = String(r.createdAt);
    d.lastIp = r.ip ?? d.lastIp;
    if (!r.endedAt && String(r.createdAt) > sessionEnds) d.open++;
  }
  return [...byDevice.values()];
}

export async function listDevices(ctx: CallContext, input: { page: number; pageSize: number; keyword?: string | null; scope: 'all' | 'sales'; onlyOpen?: boolean | null }) {
  let list = await devices(ctx, input.scope);
  const kw = input.keyword?.trim().toLowerCase();
  if (kw) list = list.filter((d) => [d.userName, d.staffName ?? '', d.lastIp ?? '', d.browser, d.system].some((x) => x.toLowerCase().includes(kw)));
  if (input.onlyOpen) list = list.filter((d) => d.open > 0);
  list.sort((a, b) => (a.lastSeen < b.lastSeen ? 1 : a.lastSeen > b.lastSeen ? -1 : 0));
  return { list: list.slice((input.page - 1) * input.pageSize, input.page * input.pageSize), total: list.length, page: input.page, pageSize: input.pageSize };
}

export const END_DEVICE_INPUT: InputSchema = {
  type: 'object', required: ['id'],
  properties: { id: { type: 'string', pattern: '^\\d{1,12}-[0-9a-f]{12}$', title: '设备' } },
};

export async function endDeviceSessions(ctx: CallContext, input: { id: string }, scope: 'all' | 'sales') {
  const [accountPart, key] = input.id.split('-') as [string, string];
  const accountId = Number(accountPart);
  const tenant = TypedTenant.of(ctx.tenant);
  const account = await tenant.select('account').select(['id', 'userName']).where('id', '=', accountId).executeTakeFirst();
  if (!account || (scope === 'sales' && !(await salesAccounts(ctx)).has(accountId))) throw bizError('COMMON_NOT_FOUND_4004', { entity: '设备' });
  const sessions = await tenant.select('authSession').select(['id', 'userAgent']).where('accountId', '=', accountId).where('endedAt', 'is', null).execute();
  const mine = sessions.filter((s) => uaKey(String(s.userAgent ?? '')) === key);
  const own = mine.some((s) => s.id === ctx.caller!.sessionId);
  for (const s of mine) await endSession(ctx.db, String(s.id), 'device-ended');
  if (mine.length) {
    const device = deviceOf(String(mine[0]!.userAgent ?? ''));
    await ctx.audit({ action: 'endSessions', entity: 'account', recordId: accountId, recordLabel: String(account.userName), changes: [
      { field: 'device', title: '设备', from: `${device.browser} / ${device.system}`, to: `已结束 ${mine.length} 个会话` },
    ] });
  }
  return { ended: mine.length, ownSession: own };
}
