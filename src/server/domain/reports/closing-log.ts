// 日结记录 (oms 023161, from 日结报表's toolbar): the company's closed days, newest first — who closed each (a
// user by hand, or 自动 when the server closed it by itself past midnight), when, and how many snapshot rows
// it kept (stock, receivables, payables).
import type { CallContext } from '../../catalog/context.ts';
import { TypedTenant } from '../../db/typed.ts';
import { countOf, page, type Paging } from '../commodity/product-query.ts';
import { PAGING } from './common.ts';

export const CLOSING_LOG_INPUT = {
  type: 'object',
  properties: { page: PAGING.page, pageSize: PAGING.pageSize },
};

export async function closingLog(ctx: CallContext, input: Paging) {
  const tenant = TypedTenant.of(ctx.tenant);
  const { list, total } = await page(input, (limit, offset) => tenant.select('dailyClosing')
    .leftJoin('account', (j) => j.onRef('account.id', '=', 'dailyClosing.closedBy').onRef('account.companyId', '=', 'dailyClosing.companyId'))
    .select(['dailyClosing.id', 'dailyClosing.day', 'dailyClosing.prevDay', 'dailyClosing.stockRows', 'dailyClosing.receivableRows', 'dailyClosing.payableRows',
      'dailyClosing.payables', 'dailyClosing.auto', 'dailyClosing.closedAt', 'dailyClosing.version', 'account.userName'])
    .orderBy('dailyClosing.day', 'desc').limit(limit).offset(offset).execute(), () => countOf(tenant.select('dailyClosing')));
  return {
    total, page: input.page, pageSize: input.pageSize,
    list: list.map((r) => ({
      id: r.id, day: r.day, prevDay: r.prevDay, stockRows: r.stockRows, receivableRows: r.receivableRows,
      // a day closed before payables were kept (migration 031) has no payable count
      payableRows: r.payables ? r.payableRows : null,
      mode: r.auto ? 'auto' : 'manual',
      closedByName: r.auto ? '自动' : r.userName ?? '',
      closedAt: r.closedAt, times: r.version,
    })),
  };
}
