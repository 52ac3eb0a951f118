// 商品排序 (productSort): the products' display order. A product holds a unique sort number or none (not
// in the list); numbers change by a conditional update on the old number, audited on the product, and
// two clerks racing for one number are told so (or, appending, the loser takes the next).
import type { CallContext } from '../../catalog/context.ts';
import type { DB as Untyped } from '../../db/connection.ts';
import { TypedTenant } from '../../db/typed.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { countOf, page, productKeyword, productOf, productRow, withCategory, type Paging } from './product-query.ts';

export const SORT_FIELD = 'sortNo';
const SORT_TITLE = '排序号';
export const MAX_SORT_NO = 999_999_999;

export interface SortListInput extends Paging {
  keyword?: string | null;
  scope?: 'sorted' | 'unsorted' | null;
  categoryId?: number | null;
}

export interface SortSaveInput { id?: number | null; productCode?: string | null; sortNo?: number | null }

export async function sortList(ctx: CallContext, input: SortListInput) {
  const unsorted = input.scope === 'unsorted';
  const tenant = TypedTenant.of(ctx.tenant);
  const keyword = productKeyword(ctx.database.dialect, input.keyword);
  const base = () => {
    let q = tenant.select('product').where('product.sortNo', unsorted ? 'is' : 'is not', null);
    if (input.categoryId) q = q.where('product.categoryId', '=', input.categoryId);
    if (keyword) q = q.where(keyword);
    return q;
  };
  const { list, total } = await page(input, (limit, offset) => {
    const q = withCategory(base()).select('product.sortNo');
    return (unsorted ? q.orderBy('product.code') : q.orderBy('product.sortNo')).orderBy('product.id').limit(limit).offset(offset).execute();
  }, () => countOf(base()));
  return {
    total, page: input.page, pageSize: input.pageSize,
    list: list.map((r) => ({ ...productRow(r), sortNo: r.sortNo === null || r.sortNo === undefined ? null : Number(r.sortNo), sorted: r.sortNo !== null && r.sortNo !== undefined })),
  };
}

function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

const sortConflict = () => bizError('COMMON_VERSION_CONFLICT_4009', { entity: '商品排序' });

async function takenBy(tenant: TypedTenant, sortNo: number, except: number) {
  return tenant.select('product').select(['id', 'code', 'name']).where('sortNo', '=', sortNo).where('id', '!=', except).executeTakeFirst();
}

const taken = (sortNo: number, other: { code: string; name: string }) => validationError([{ field: SORT_FIELD, message: `${SORT_TITLE} ${sortNo} 已被商品 ${String(other.code)} ${String(other.name)} 使用` }]);

/** Writes one product's number (null: out of the list) if it still holds `from`; audited on the product. */
async function writeSortNo(ctx: CallContext, db: Untyped, tenant: TypedTenant, p: { id: number; name: string }, from: number | null, to: number | null, audit = true) {
  const res = await tenant.update('product').set({ sortNo: to })
    .where('id', '=', Number(p.id)).where('sortNo', from === null ? 'is' : '=', from).executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw sortConflict();
  if (audit) {
    await ctx.audit({
      action: 'update', entity: 'product', recordId: Number(p.id), recordLabel: String(p.name),
      changes: [{ field: SORT_FIELD, title: SORT_TITLE, from, to }],
    }, db);
  }
}

const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

class LastNumberTaken extends Error {}

/** Gives a product a number, or (no number) appends it after the last one. */
export async function sortSave(ctx: CallContext, input: SortSaveInput) {
  // Two clerks appending at once both read the same last number; the loser simply takes the next one.
  for (let attempt = 1; ; attempt++) {
    try {
      return await sortSaveOnce(ctx, input);
    } catch (e) {
      if (!(isUniqueViolation(e) || e instanceof LastNumberTaken) || input.sortNo != null) throw e;
      if (attempt >= 5) throw sortConflict();
    }
  }
}

async function sortSaveOnce(ctx: CallContext, input: SortSaveInput) {
  try {
    return await ctx.transaction(async (db, untypedTenant) => {
      const tenant = TypedTenant.of(untypedTenant);
      const p = await productOf(tenant, { id: input.id, productCode: input.productCode });
      const before = numOrNull(p.sortNo);
      let to = input.sortNo ?? null;
      if (to === null) {
        if (before !== null) return { id: Number(p.id), sortNo: before };
        const top = await tenant.select('product').select((eb) => eb.fn.max('sortNo').as('m')).executeTakeFirst();
        to = Math.min(MAX_SORT_NO, Number(top?.m ?? 0) + 1);
      }
      if (to === before) return { id: Number(p.id), sortNo: to };
      const other = await takenBy(tenant, to, Number(p.id));
      // Appending: another clerk committed the same next number between our two reads — take the next.
      if (other && input.sortNo == null) throw new LastNumberTaken();
      if (other) throw taken(to, other);
      await writeSortNo(ctx, db, tenant, p, before, to);
      return { id: Number(p.id), code: p.code, sortNo: to };
    });
  } catch (e) {
    // Two clerks gave two products the same number at once: the unique index stopped the second.
    if (isUniqueViolation(e) && input.sortNo != null) throw validationError([{ field: SORT_FIELD, message: `${SORT_TITLE} ${input.sortNo} 已被其他商品使用` }]);
    throw e;
  }
}

/** Swaps a product's number with its neighbour's (up: the one before, down: the one after). */
export async function sortMove(ctx: CallContext, input: { id: number; direction: 'up' | 'down' }) {
  try {
    return await ctx.transaction(async (db, untypedTenant) => {
      const tenant = TypedTenant.of(untypedTenant);
      const p = await productOf(tenant, { id: input.id });
      const mine = numOrNull(p.sortNo);
      if (mine === null) throw validationError([{ field: 'id', message: `商品 ${String(p.code)} 不在排序列表中，请先加入排序` }]);
      const up = input.direction === 'up';
      const neighbour = await tenant.select('product').select(['id', 'code', 'name', 'sortNo'])
        .where('sortNo', up ? '<' : '>', mine).orderBy('sortNo', up ? 'desc' : 'asc').limit(1).executeTakeFirst();
      if (!neighbour) throw validationError([{ field: 'direction', message: up ? '已经是第一个，不能上移' : '已经是最后一个，不能下移' }]);
      const theirs = Number(neighbour.sortNo);
      // Swap through NULL: the unique index never sees two products holding one number.
      await writeSortNo(ctx, db, tenant, p, mine, null, false);
      await writeSortNo(ctx, db, tenant, neighbour, theirs, mine);
      await writeSortNo(ctx, db, tenant, p, null, theirs, false);
      await ctx.audit({ action: 'update', entity: 'product', recordId: Number(p.id), recordLabel: String(p.name), changes: [{ field: SORT_FIELD, title: SORT_TITLE, from: mine, to: theirs }] }, db);
      return { id: Number(p.id), sortNo: theirs, swappedWith: { id: Number(neighbour.id), code: neighbour.code, sortNo: mine } };
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw sortConflict();
    throw e;
  }
}

/** Takes products out of the display order. */
export async function sortRemove(ctx: CallContext, input: { id?: number; ids?: number[] }) {
  const ids = [...new Set([...(input.ids ?? []), ...(input.id ? [input.id] : [])])];
  if (!ids.length) throw validationError([{ field: 'ids', message: '请选择要移出排序的商品' }]);
  return ctx.transaction(async (db, untypedTenant) => {
    const tenant = TypedTenant.of(untypedTenant);
    const rows = await tenant.select('product').select(['id', 'code', 'name', 'sortNo']).where('id', 'in', ids).execute();
    if (rows.length !== ids.length) throw bizError('PRODUCT_NOT_EXIST_4001');
    let removed = 0;
    for (const p of rows) {
      if (p.sortNo === null || p.sortNo === undefined) continue;
      await writeSortNo(ctx, db, tenant, p, Number(p.sortNo), null);
      removed++;
    }
    return { removed };
  });
}
