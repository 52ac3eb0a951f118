// 预售商品 and 预售排序 (issue 16's presale offers, which presale lines of sales orders draw on): the
// products of presale plans with their presale price and quantity, what orders have presold of them
// (sold_qty, kept by src/server/domain/sales/presale-lines.ts), what is left, and what is expected in —
// the open quantity of inbound tasks (在途), the arrivals presale orders are reserved against. Items are
// written through the presaleItem resource; the display order through `setPresaleSort`.
import { sql } from 'kysely';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { PAGING_PROPS, text } from '../procurement/common.ts';
import { TypedTenant } from '../../db/typed.ts';

export const PRESALE_ITEMS_INPUT: InputSchema = {
  type: 'object',
  properties: {
    ...PAGING_PROPS,
    planId: { type: ['integer', 'null'], minimum: 1, title: '预售计划' },
    keyword: { type: ['string', 'null'], maxLength: 100, title: '商品编码或名称' },
    status: { enum: ['draft', 'active', 'closed', null], title: '计划状态' },
  },
};

export interface PresaleItemsInput { page: number; pageSize: number; planId?: number | null; keyword?: string | null; status?: string | null }

const PLAN_STATUS: Record<string, string> = { draft: '草稿', active: '进行中', closed: '已结束' };
const yuan = (cents: unknown) => (Number(cents) / 100).toFixed(2);

export async function listPresaleItems(ctx: CallContext, input: PresaleItemsInput) {
  const tenant = TypedTenant.of(ctx.tenant);
  const join = () => tenant.select('presaleItem')
    .innerJoin('presalePlan', (j) => j.onRef('presalePlan.id', '=', 'presaleItem.planId').onRef('presalePlan.companyId', '=', 'presaleItem.companyId'))
    .innerJoin('product', (j) => j.onRef('product.id', '=', 'presaleItem.productId').onRef('product.companyId', '=', 'presaleItem.companyId'));
  let q = join();
  if (input.planId) q = q.where('presaleItem.planId', '=', input.planId);
  if (input.status) q = q.where('presalePlan.status', '=', input.status);
  const kw = input.keyword?.trim().replace(/[\\%_]/g, '');
  if (kw) q = q.where((eb) => eb.or([eb('product.code', 'like', `${kw}%`), eb('product.name', 'like', `%${kw}%`)]));
  const counted = await q.select((eb) => eb.fn.countAll().as('total')).executeTakeFirst();
  const total = Number(counted?.total ?? 0);
  // the display order (预售排序), then the product code
  const rows = await q.select(['presaleItem.id', 'presaleItem.version', 'presaleItem.planId', 'presaleItem.productId', 'presaleItem.price', 'presaleItem.qty', 'presaleItem.soldQty',
    'presaleItem.sortOrder', 'presaleItem.updatedAt', 'presalePlan.code as planCode', 'presalePlan.name as planName', 'presalePlan.status as planStatus',
    'presalePlan.startDate', 'presalePlan.endDate', 'product.code as productCode', 'product.name as productName', 'product.specification', 'product.unitSmall'])
    .orderBy('presaleItem.sortOrder').orderBy('product.code').orderBy('presaleItem.id')
    .limit(input.pageSize).offset((input.page - 1) * input.pageSize).execute();
  // 在途 of the page's products: open inbound tasks, every warehouse
  const ids = [...new Set(rows.map((r) => Number(r.productId)))];
  const incoming = new Map<number, number>();
  if (ids.length) {
    const open = await tenant.select('inboundTaskLine')
      .innerJoin('inboundTask', (j) => j.onRef('inboundTask.id', '=', 'inboundTaskLine.taskId').onRef('inboundTask.companyId', '=', 'inboundTaskLine.companyId'))
      .select(['inboundTaskLine.productId', (eb) => eb.fn.sum(eb('inboundTaskLine.qty', '-', eb.ref('inboundTaskLine.receivedQty'))).as('open')])
      .where('inboundTask.status', 'in', ['open', 'receiving']).where('inboundTaskLine.productId', 'in', ids)
      .groupBy('inboundTaskLine.productId').execute();
    for (const r of open) incoming.set(Number(r.productId), Math.max(0, Number(r.open ?? 0)));
  }
  return {
    total,
    list: rows.map((r) => {
      const qty = Number(r.qty);
      const sold = Number(r.soldQty);
      return {
        id: Number(r.id), version: Number(r.version), planId: Number(r.planId), planCode: text(r.planCode), planName: text(r.planName),
        planStatus: text(r.planStatus), planStatusText: PLAN_STATUS[String(r.planStatus)] ?? text(r.planStatus), startDate: text(r.startDate), endDate: text(r.endDate),
        productId: Number(r.productId), productCode: text(r.productCode), productName: text(r.productName), specification: text(r.specification), unitSmall: text(r.unitSmall),
        price: yuan(r.price), qty, soldQty: sold, leftQty: qty > 0 ? Math.max(0, qty - sold) : null, incoming: incoming.get(Number(r.productId)) ?? 0,
        sortOrder: Number(r.sortOrder), updatedAt: text(r.updatedAt),
      };
    }),
  };
}

/** Sets one item's display order (a small number first). */
export async function setPresaleSort(ctx: CallContext, input: { id: number; sortOrder: number | string }) {
  const sortOrder = Number(String(input.sortOrder).trim() || '0');
  if (!Number.isSafeInteger(sortOrder) || sortOrder < 0 || sortOrder > 1_000_000) throw validationError([{ field: 'sortOrder', message: '排序必须是 0–1000000 的整数' }]);
  return ctx.transaction(async (db, untypedTenant) => {
    const tenant = TypedTenant.of(untypedTenant);
    const before = await tenant.select('presaleItem').select(['id', 'sortOrder']).where('id', '=', input.id).executeTakeFirst();
    if (!before) throw bizError('COMMON_NOT_FOUND_4004', { entity: '预售商品' });
    const now = new Date().toISOString();
    await tenant.update('presaleItem').set({ sortOrder, version: sql`${sql.ref('version')} + 1`, updatedAt: now }).where('id', '=', input.id).execute();
    await ctx.audit({ action: 'update', entity: 'presaleItem', recordId: input.id, recordLabel: null, changes: [{ field: 'sortOrder', title: '排序', from: Number(before.sortOrder), to: sortOrder }] }, db);
    return { id: input.id, sortOrder };
  });
}

