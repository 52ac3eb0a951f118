// 应用使用统计 (/reportForms/app): who uses the system and how, over company days —
//   logins: sessions opened (auth_session, by the company day they began);
//   devices: distinct devices logged in from (one browser of one account, as 客户设备 counts them);
//   active users: distinct accounts that logged in or made a call;
//   calls and failed calls (an answer other than success) from the per-minute API aggregate
//   (api_usage_minute, whose minutes are company-local already), never from a row per request.
// Grouped by day, week, month, user (account) or module (the menu section of the right a call needs, or of
// the screens calling it; logins belong to no module and stand in a row of their own) — the groupings of its screen schema
// (schemas/screens/reportForms/app.json). Devices and active users are distinct counts: the grand totals
// count each once over the whole range, not the sum of the rows. With no range, this month so far; at most
// 366 days; filtered by user name (any part of it).
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Catalog } from '../../../core/catalog.ts';
import { companyDateRange, formatDate } from '../../../core/format.ts';
import { MENU_GROUP_TITLES, type MenuGroup } from '../../../core/menu-groups.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import { SCHEMAS_DIR } from '../../catalog/load-catalog.ts';
import { walkJson, type RightInfo } from '../../catalog/rights-catalog.ts';
import { TypedTenant } from '../../db/typed.ts';
import { tz } from '../procurement/common.ts';
import { monitorOf } from '../system/monitor.ts';
import { Groups, measureValue, reportPage, reportXlsx, type Group, type Measure, type ReportPaging } from './common.ts';
import { PERIODS, periodKey } from './dimensions.ts';
import { daysOrThisMonth } from './report-days.ts';
import { screenGroupings, reportInput } from './screen-groupings.ts';

const SCREEN = 'reportForms/app';
const LOGIN_ROW = 'login';
const SHARED_MODULE = 'shared';

export const APP_USAGE_MEASURES: Measure[] = [
  { field: 'logins', title: '登录次数', kind: 'qty' },
  { field: 'devices', title: '登录设备数', kind: 'qty' },
  { field: 'activeUsers', title: '活跃用户数', kind: 'qty' },
  { field: 'calls', title: '调用次数', kind: 'qty' },
  { field: 'failed', title: '未成功次数', kind: 'qty' },
];

export const APP_USAGE_INPUT: InputSchema = reportInput(SCREEN, {
  user: { type: ['string', 'null'], maxLength: 50, title: '用户' },
});

export interface AppUsageInput extends ReportPaging {
  groupBy: string;
  dateRange?: unknown;
  /** accounts whose user name holds this text */
  user?: string | null;
}

/** The menu sections whose screen files call each endpoint ("family:code"), read once from the screens. */
let callersOf: Map<string, Set<string>> | undefined;
function screenGroupsOfEndpoints(): Map<string, Set<string>> {
  if (callersOf) return callersOf;
  callersOf = new Map();
  for (const file of walkJson(path.join(SCHEMAS_DIR, 'screens'))) {
    const text = fs.readFileSync(file, 'utf8');
    const group = (JSON.parse(text) as { menu?: { group?: string } }).menu?.group;
    if (!group || !(group in MENU_GROUP_TITLES)) continue;
    for (const m of text.matchAll(/"((?:cdm|oms|auth|storage):\d{6})"/g)) {
      if (!callersOf.has(m[1]!)) callersOf.set(m[1]!, new Set());
      callersOf.get(m[1]!)!.add(group);
    }
  }
  return callersOf;
}

/**
 * The module of each endpoint ("family:code"): the menu section of the screen that declares the right it
 * needs; for a call any user may make (options, the export centre), the section of the screens that call
 * it when they are all of one; else 通用 (the session, menus, options shared by several sections).
 */
function moduleOfEndpoint(catalog: Catalog, rights: RightInfo[]): Map<string, string> {
  const group = new Map(rights.map((r) => [r.code, r.group]));
  const callers = screenGroupsOfEndpoints();
  const out = new Map<string, string>();
  for (const [family, entries] of Object.entries(catalog.families)) {
    for (const e of entries) {
      const key = `${family}:${e.code}`;
      const only = callers.get(key)?.size === 1 ? [...callers.get(key)!][0] : undefined;
      // a right no screen declares (an endpoint's own) belongs to the section its code starts with
      const g = group.get(e.permission) ?? only ?? e.permission.split('.')[0];
      out.set(key, g && g in MENU_GROUP_TITLES ? g : SHARED_MODULE);
    }
  }
  return out;
}

interface Tally { groups: Groups; users: Map<string, Set<number>>; devices: Map<string, Set<string>>; allUsers: Set<number>; allDevices: Set<string> }

function note(t: Tally, key: string, account: number, device?: string): void {
  if (account > 0) {
    if (!t.users.has(key)) t.users.set(key, new Set());
    t.users.get(key)!.add(account);
    t.allUsers.add(account);
  }
  if (device) {
    if (!t.devices.has(key)) t.devices.set(key, new Set());
    t.devices.get(key)!.add(device);
    t.allDevices.add(device);
  }
}

async function appUsageGroups(ctx: CallContext, catalog: Catalog, rights: RightInfo[], input: AppUsageInput) {
  const tzHours = tz(ctx);
  const { from, to } = daysOrThisMonth(input.dateRange, tzHours);
  const tenant = TypedTenant.of(ctx.tenant);
  const typed = input.user?.trim().replace(/[%_\\]/g, '');
  // any part of the user name, in any case (PostgreSQL's LIKE tells cases apart, SQLite's does not)
  const accounts = typed
    ? (await tenant.select('account').select('id').where(sql<boolean>`lower(${sql.ref('account.userName')}) like ${`%${typed.toLowerCase()}%`}`).execute()).map((a) => a.id)
    : undefined;
  if (accounts && !accounts.length) accounts.push(0); // no such user: no rows (account 0 is never a user)
  const by = input.groupBy;
  const period = PERIODS.has(by);
  const t: Tally = { groups: new Groups(APP_USAGE_MEASURES), users: new Map(), devices: new Map(), allUsers: new Set(), allDevices: new Set() };
  if (period) for (let d = Date.parse(`${from}T00:00:00Z`); d <= Date.parse(`${to}T00:00:00Z`); d += 86_400_000) t.groups.add(periodKey(by, new Date(d).toISOString().slice(0, 10)), {}, {});

  // logins: one row per session opened in the range (people log in a few times a day, not per request)
  const [fromAt, toAt] = companyDateRange(from, to, tzHours);
  let sessions = tenant.select('authSession').select(['authSession.accountId', 'authSession.createdAt', 'authSession.userAgent'])
    .where('authSession.createdAt', '>=', fromAt).where('authSession.createdAt', '<=', toAt);
  if (accounts) sessions = sessions.where('authSession.accountId', 'in', accounts);
  for (const s of await sessions.execute()) {
    const account = Number(s.accountId);
    const key = period ? periodKey(by, formatDate(s.createdAt, tzHours)) : by === 'account' ? String(account) : LOGIN_ROW;
    t.groups.add(key, {}, { logins: 1n });
    note(t, key, account, `${account}|${s.userAgent ?? ''}`);
  }

  // calls: what this process counted so far is in the table first
  await monitorOf(ctx.database)?.flushUsage();
  // by account the account is the key (PostgreSQL refuses a constant in GROUP BY: the endpoint stands in)
  const keyExpr = period ? sql<string>`substr(${sql.ref('apiUsageMinute.minute')}, 1, 10)` : sql<string>`${sql.ref('apiUsageMinute.endpoint')}`;
  let usage = tenant.select('apiUsageMinute')
    .where('apiUsageMinute.minute', '>=', from).where('apiUsageMinute.minute', '<', `${to} 99`);
  if (accounts) usage = usage.where('apiUsageMinute.accountId', 'in', accounts);
  const rows = await usage.select([
    keyExpr.as('k'), 'apiUsageMinute.accountId',
    sql<string>`sum(${sql.ref('apiUsageMinute.calls')})`.as('calls'),
    sql<string>`sum(case when ${sql.ref('apiUsageMinute.code')} <> '200' then ${sql.ref('apiUsageMinute.calls')} else 0 end)`.as('failed'),
  ]).groupBy([keyExpr, 'apiUsageMinute.accountId']).execute();
  const modules = by === 'module' ? moduleOfEndpoint(catalog, rights) : undefined;
  for (const r of rows) {
    const account = Number(r.accountId);
    const key = period ? periodKey(by, String(r.k)) : by === 'account' ? String(account) : modules!.get(String(r.k)) ?? SHARED_MODULE;
    t.groups.add(key, {}, { calls: BigInt(String(r.calls ?? 0)), failed: BigInt(String(r.failed ?? 0)) });
    note(t, key, account);
  }

  const list = t.groups.list();
  for (const g of list) {
    g.sums.set('activeUsers', BigInt(t.users.get(g.key)?.size ?? 0));
    g.sums.set('devices', BigInt(t.devices.get(g.key)?.size ?? 0));
  }
  await label(ctx, by, list);
  const distinct = { activeUsers: measureValue('qty', BigInt(t.allUsers.size)), devices: measureValue('qty', BigInt(t.allDevices.size)) };
  return { list, distinct, from, to };
}

async function label(ctx: CallContext, by: string, list: Group[]): Promise<void> {
  if (PERIODS.has(by)) {
    for (const g of list) g.labels = { [by]: g.key, label: by === 'week' ? `${g.key} 周` : g.key };
  } else if (by === 'account') {
    const ids = list.map((g) => Number(g.key)).filter((id) => id > 0);
    const accounts = new Map<number, { userName: string; staffName: string | null }>();
    if (ids.length) {
      const rows = await TypedTenant.of(ctx.tenant).select('account')
        .leftJoin('staff', (j) => j.onRef('staff.id', '=', 'account.staffId').onRef('staff.companyId', '=', 'account.companyId'))
        .select(['account.id', 'account.userName', 'staff.name as staffName']).where('account.id', 'in', ids).execute();
      for (const a of rows) accounts.set(Number(a.id), { userName: a.userName, staffName: a.staffName ?? null });
    }
    for (const g of list) {
      const a = accounts.get(Number(g.key));
      const userName = Number(g.key) > 0 ? a?.userName ?? `#${g.key}` : '（未登录）';
      g.labels = { accountId: Number(g.key) || null, userName, staffName: a?.staffName ?? null, label: a?.staffName ? `${userName}（${a.staffName}）` : userName };
    }
  } else {
    for (const g of list) {
      const name = g.key === LOGIN_ROW ? '（登录，不分模块）' : MENU_GROUP_TITLES[g.key as MenuGroup] ?? '通用（会话、菜单、选项）';
      g.labels = { module: g.key, moduleName: name, label: name };
    }
  }
}

export async function appUsageReport(ctx: CallContext, catalog: Catalog, rights: RightInfo[], input: AppUsageInput) {
  const { list, distinct, from, to } = await appUsageGroups(ctx, catalog, rights, input);
  return { ...reportPage(list, screenGroupings(SCREEN)[input.groupBy]!, APP_USAGE_MEASURES, input, distinct), from, to };
}

export async function exportAppUsageReport(ctx: CallContext, catalog: Catalog, rights: RightInfo[], input: AppUsageInput) {
  const { list, distinct } = await appUsageGroups(ctx, catalog, rights, input);
  return reportXlsx('应用使用统计', screenGroupings(SCREEN)[input.groupBy]!, APP_USAGE_MEASURES, list, input, tz(ctx), distinct);
}
