// 导入销售订单 (oms 020914, template 020915): draft sales orders from a spreadsheet — one row per line,
// rows of one client, warehouse, order date and 订单分组 make one order. Every order is saved by the
// document engine's own save (the same validation, list prices and price bounds as the order screen:
// issue 13 wants the bounds on every path that writes a price), all in one transaction: a refused row
// refuses the file (COMMON_IMPORT_4012, row by row) and nothing is written.
import type { CallContext } from '../../catalog/context.ts';
import type { DB } from '../../db/connection.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { ApiError, bizError } from '../../http/errors.ts';
import {
  cellTextAt, headerIndex, headerProblems, importFailed, MAX_IMPORT_ROWS, normHeader, readUploadedSpreadsheet, xlsxDownload, type ImportRowError, type SheetRow,
} from '../../files/xlsx.ts';
import type { Row } from '../procurement/common.ts';
import { TypedTenant } from '../../db/typed.ts';

const COLUMNS = {
  clientCode: '客户编码', warehouseCode: '仓库编码', orderDate: '订单日期', group: '订单分组', deliveryDate: '交货日期',
  productCode: '商品编码', qty: '数量', price: '单价', discount: '折扣(%)', remark: '备注',
} as const;
type Key = keyof typeof COLUMNS;
const REQUIRED: Key[] = ['clientCode', 'warehouseCode', 'productCode', 'qty'];
/** The orders one file may hold (each is a full engine save). */
const MAX_ORDERS = 500;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A context whose own transactions join the open one (the engine's save runs inside the import's). */
function joined(ctx: CallContext, db: DB, tenant: Tenant): CallContext {
  return { ...ctx, db, tenant, transaction: (fn) => fn(db, tenant), audit: (e, d) => ctx.audit(e, d ?? db) };
}

/** A date cell: a spreadsheet date or text YYYY-MM-DD (also YYYY/MM/DD). */
function dayOf(line: SheetRow, at: number | undefined): string | null | { error: string } {
  if (at === undefined) return null;
  const v = line.cells[at];
  if (v === null || v === undefined || (typeof v === 'string' && !v.trim())) return null;
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  const text = String(v).trim().replace(/\//g, '-');
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  const day = m ? `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}` : '';
  return DAY.test(day) && !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) ? day : { error: '日期格式应为 YYYY-MM-DD' };
}

/** A number cell as text for the engine's parser (it says what is wrong in the field's own words). */
function numberText(line: SheetRow, at: number | undefined): string | null {
  if (at === undefined) return null;
  const v = line.cells[at];
  if (v === null || v === undefined || (typeof v === 'string' && !v.trim())) return null;
  return typeof v === 'number' ? String(v) : String(v).trim();
}

interface Group { key: string; rows: number[]; clientId: number; warehouseId: number; orderDate: string | null; deliveryDate: string | null; lines: Row[] }

export async function importSalesOrders(ctx: CallContext) {
  const upload = await readUploadedSpreadsheet(ctx);
  const rows = upload.sheet.rows.filter((x) => x.cells.some((c) => c !== null && !(typeof c === 'string' && !c.trim())));
  if (!rows.length) throw bizError('COMMON_IMPORT_EMPTY_4014');
  const errors: ImportRowError[] = [];
  for (const p of headerProblems(upload.sheet, rows[0], Object.values(COLUMNS))) errors.push({ ...p, field: '' });
  if (errors.length) throw importFailed(errors);
  const header = headerIndex(rows[0].cells);
  const at = Object.fromEntries((Object.keys(COLUMNS) as Key[]).map((k) => [k, header.get(normHeader(COLUMNS[k]))])) as Record<Key, number | undefined>;
  for (const k of REQUIRED) if (at[k] === undefined) errors.push({ row: rows[0].row, field: k, message: `缺少必填列“${COLUMNS[k]}”，请使用销售订单导入模板` });
  if (errors.length) throw importFailed(errors);
  const data = rows.slice(1);
  if (!data.length) throw importFailed([{ row: rows[0].row + 1, field: '', message: '文件中没有数据行' }]);
  if (data.length > MAX_IMPORT_ROWS) throw bizError('COMMON_IMPORT_ROWS_4017', { max: MAX_IMPORT_ROWS, count: data.length });

  // codes → ids, one query per kind and 500 codes
  const ids = async (table: 'client' | 'warehouse' | 'product', key: Key) => {
    const codes = [...new Set(data.map((r) => cellTextAt(r, at[key])).filter(Boolean))];
    const out = new Map<string, number>();
    for (let i = 0; i < codes.length; i += 500) {
      for (const r of await TypedTenant.of(ctx.tenant).select(table).select(['id', 'code']).where('code', 'in', codes.slice(i, i + 500)).execute()) out.set(String(r.code), Number(r.id));
    }
    return out;
  };
  const clients = await ids('client', 'clientCode');
  const warehouses = await ids('warehouse', 'warehouseCode');
  const products = await ids('product', 'productCode');

  const groups = new Map<string, Group>();
  for (const r of data) {
    const err = (field: Key, message: string) => errors.push({ row: r.row, field, title: COLUMNS[field], message: `第 ${r.row} 行：${message}` });
    const client = cellTextAt(r, at.clientCode);
    const wh = cellTextAt(r, at.warehouseCode);
    const code = cellTextAt(r, at.productCode);
    const clientId = clients.get(client);
    const warehouseId = warehouses.get(wh);
    const productId = products.get(code);
    if (!client) err('clientCode', '客户编码不能为空'); else if (!clientId) err('clientCode', `客户编码“${client.slice(0, 40)}”不存在`);
    if (!wh) err('warehouseCode', '仓库编码不能为空'); else if (!warehouseId) err('warehouseCode', `仓库编码“${wh.slice(0, 40)}”不存在`);
    if (!code) err('productCode', '商品编码不能为空'); else if (!productId) err('productCode', `商品编码“${code.slice(0, 40)}”不存在`);
    const orderDate = dayOf(r, at.orderDate);
    const deliveryDate = dayOf(r, at.deliveryDate);
    const isError = (d: typeof orderDate): d is { error: string } => d !== null && typeof d === 'object';
    if (isError(orderDate)) err('orderDate', `订单日期：${orderDate.error}`);
    if (isError(deliveryDate)) err('deliveryDate', `交货日期：${deliveryDate.error}`);
    const qty = numberText(r, at.qty);
    if (qty === null) err('qty', '数量不能为空');
    if (!clientId || !warehouseId || !productId || qty === null || isError(orderDate) || isError(deliveryDate)) continue;
    const key = JSON.stringify([clientId, warehouseId, orderDate, cellTextAt(r, at.group)]);
    const g = groups.get(key) ?? { key, rows: [], clientId, warehouseId, orderDate, deliveryDate, lines: [] };
    g.deliveryDate ??= deliveryDate;
    g.rows.push(r.row);
    g.lines.push({ productId, qty: /^\d{1,15}$/.test(qty) ? Number(qty) : qty, price: numberText(r, at.price), discount: numberText(r, at.discount) ?? undefined, remark: cellTextAt(r, at.remark) || undefined });
    groups.set(key, g);
  }
  if (errors.length) throw importFailed(errors);
  if (groups.size > MAX_ORDERS) throw importFailed([{ row: data[0]!.row, field: '', message: `一个文件最多导入 ${MAX_ORDERS} 张订单，本文件有 ${groups.size} 张` }]);

  const orders = ctx.documents.get('salesOrder')!;
  return ctx.transaction(async (db, tenant) => {
    const inner = joined(ctx, db, tenant);
    const made: Array<{ id: number; docNo: string }> = [];
    for (const g of groups.values()) {
      try {
        const saved = await orders.save(inner, {
          clientId: g.clientId, warehouseId: g.warehouseId, ...(g.orderDate ? { orderDate: g.orderDate } : {}), ...(g.deliveryDate ? { deliveryDate: g.deliveryDate } : {}),
          remark: `导入：${upload.fileName}`.slice(0, 500), lines: g.lines,
        });
        made.push({ id: Number(saved.id), docNo: String(saved.docNo) });
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        // the engine's refusal, told on the sheet's rows: a field of line i, a line number, or the whole order
        const d = (e.data ?? {}) as { errors?: Array<{ field: string; message: string }>; line?: number };
        const rowOf = (line: number | undefined) => (line !== undefined && g.rows[line] !== undefined ? g.rows[line]! : g.rows[0]!);
        if (d.errors?.length) {
          for (const fe of d.errors) {
            const m = /^lines\.(\d+)\./.exec(fe.field);
            const row = rowOf(m ? Number(m[1]) : undefined);
            errors.push({ row, field: fe.field, message: `第 ${row} 行：${fe.message.replace(/^第 \d+ 行：/, '')}` });
          }
        } else {
          const row = rowOf(typeof d.line === 'number' ? d.line - 1 : undefined);
          errors.push({ row, field: '', message: `第 ${row} 行：${e.message.replace(/第 \d+ 行/, `第 ${row} 行`)}` });
        }
        throw importFailed(errors);
      }
    }
    return { created: made.length, count: data.length, orders: made.map((m) => m.docNo) };
  });
}

/** The template: the columns with two sample rows (one order of two lines) and the instructions. */
export function salesOrderTemplate() {
  return xlsxDownload('销售订单导入模板.xlsx', async (book) => {
    const sheet = book.addSheet('销售订单', (Object.keys(COLUMNS) as Key[]).map((k) => ({
      header: COLUMNS[k], width: k === 'remark' ? 24 : 14, highlight: REQUIRED.includes(k), numFmt: ['qty', 'price', 'discount'].includes(k) ? undefined : '@',
    })));
    sheet.addRow(['C001', 'WH01', '2026-12-01', '', '2026-12-10', 'P0001', 24, '12.50', 0, '']);
    sheet.addRow(['C001', 'WH01', '2026-12-01', '', '2026-12-10', 'P0002', 6, '', 5, '单价留空取价格表价']);
    const notes = book.addSheet('填写说明', [{ header: '列', width: 14 }, { header: '说明', width: 80 }]);
    notes.addRow(['客户编码', '必填，按编码匹配客户']);
    notes.addRow(['仓库编码', '必填，发货仓库']);
    notes.addRow(['订单日期', '选填，YYYY-MM-DD；留空为今天。客户、仓库、订单日期与订单分组相同的行合成一张订单']);
    notes.addRow(['订单分组', '选填，同一客户要分成几张订单时填不同的分组']);
    notes.addRow(['商品编码', '必填；数量为最小单位的整数']);
    notes.addRow(['单价', '选填，留空取客户价格表价；超出价格上下限需要“销售订单超限放行”权限']);
    notes.addRow(['折扣(%)', '选填，0–100']);
    notes.addRow(['说明', '导入的订单为草稿，确认时预留库存；任何一行有误时整个文件不导入，并逐行列出错误']);
  });
}
