// Parts the master-data and commodity downloads share: file-name-safe text, the company's local time of
// a stamp, amounts in minor units as sheet numbers, and paged reading of a query into a sheet.
import Decimal from 'decimal.js';
import type { CallContext } from '../../catalog/context.ts';

export const MONEY_FMT = '#,##0.00';
/** Rows read per query while a sheet is written. */
export const SHEET_PAGE = 2000;

/** The caller's company's UTC offset in hours. */
export const tz = (ctx: CallContext) => ctx.caller?.company.timeZone ?? 8;

/** Minor units (cents) → a sheet number; null stays null. */
export const money = (v: unknown): number | null => (v === null || v === undefined ? null : new Decimal(String(v)).div(100).toNumber());
/** Minor units (cents) → "19.99". */
export const moneyText = (v: unknown): string | null => (v === null || v === undefined ? null : new Decimal(String(v)).div(100).toFixed(2));

/** File-name-safe text (keeps Chinese). */
export const safeName = (s: unknown) => String(s ?? '').replace(/[\\/:*?"<>|\x00-\x1f]/g, '_').slice(0, 60) || '未命名';

/** What an audit action is called in a sheet. */
export const ACTIONS: Record<string, string> = { create: '新增', update: '修改', remove: '删除', import: '导入' };

/** A stored ISO stamp as the company's local "YYYY-MM-DD HH:mm:ss". */
export function formatAt(at: unknown, tzHours: number): string {
  const t = Date.parse(String(at));
  if (Number.isNaN(t)) return String(at ?? '');
  const d = new Date(t + tzHours * 3_600_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

/** Reads a query page by page (`read(limit, offset)`) into `each`, letting the sheet drain between pages. */
export async function pagedRows<T>(read: (limit: number, offset: number) => Promise<T[]>, each: (rows: T[]) => void | Promise<void>, drain: () => Promise<void>): Promise<void> {
  for (let offset = 0; offset < 1_000_000; offset += SHEET_PAGE) {
    const rows = await read(SHEET_PAGE, offset);
    await each(rows);
    if (rows.length < SHEET_PAGE) break;
    await drain();
  }
}
