// 数据校验 / 数据校验详情: every run of the verification (cdm 019401: stock from the ledger, receivables
// and payables from the allocation ledger — the code of `npm run verify`) is kept with its differences
// (at most MAX_KEPT of them) and opened later by its time (/system/verificationDetail/:time).
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import { bizError } from '../../http/errors.ts';
import { verifyFinance } from '../finance/verify.ts';
import { verifyStock } from '../stock/verify.ts';
import { TypedTenant, typed } from '../../db/typed.ts';

const MAX_KEPT = 1000;
const FINANCE_TITLES: Record<string, string> = { item: '款项未结金额不符', payment: '收付款单核销不符', payable: '应付已付不符', total: '未结合计不符' };

export async function runVerification(ctx: CallContext) {
  const companyId = ctx.caller!.company.id;
  const started = Date.now();
  const stock = await verifyStock(ctx.db, { companyId, limit: MAX_KEPT });
  const finance = await verifyFinance(ctx.db, { companyId, limit: MAX_KEPT });
  const ms = Date.now() - started;
  const differences = [
    ...stock.differences.map((d) => ({ area: '库存', ...d })),
    ...finance.differences.map((d) => ({ area: '财务', ...d, title: FINANCE_TITLES[d.kind] ?? d.kind })),
  ].slice(0, MAX_KEPT).map((d, i) => ({ no: i + 1, ...d }));
  const total = stock.total + finance.total;
  const at = new Date().toISOString();
  const summary = { moves: stock.moves, balances: stock.balances, items: finance.items, allocations: finance.allocations, stockTotal: stock.total, financeTotal: finance.total };
  await typed(ctx.db).insertInto('verifyRun').values({
    companyId, kind: 'ledger', at, accountId: ctx.caller!.accountId, ms, total, summary: JSON.stringify(summary), differences: JSON.stringify(differences),
  }).execute();
  // the answer of the stock check as before (the form's result text), plus the run's key
  return { ...stock, ms, total, checkedAt: stock.checkedAt, time: at, finance: { total: finance.total, items: finance.items }, differences };
}

export const RUN_LIST_INPUT: InputSchema = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 200, default: 20, title: '每页条数' },
    onlyDifferences: { type: ['boolean', 'null'], title: '只看有差异' },
  },
};

export async function listRuns(ctx: CallContext, input: { page: number; pageSize: number; onlyDifferences?: boolean | null }) {
  let q = TypedTenant.of(ctx.tenant).select('verifyRun');
  if (input.onlyDifferences) q = q.where('total', '>', 0);
  const counted = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  const rows = await q.leftJoin('account', 'account.id', 'verifyRun.accountId')
    .select(['verifyRun.id', 'verifyRun.at', 'verifyRun.ms', 'verifyRun.total', 'verifyRun.summary', 'account.userName'])
    .orderBy('verifyRun.at', 'desc').limit(input.pageSize).offset((input.page - 1) * input.pageSize).execute();
  return {
    list: rows.map((r) => ({ id: Number(r.id), time: String(r.at), at: String(r.at), ms: Number(r.ms), total: Number(r.total), userName: r.userName ?? null, ...JSON.parse(String(r.summary)) })),
    total: Number(counted?.n ?? 0), page: input.page, pageSize: input.pageSize,
  };
}

export const RUN_GET_INPUT: InputSchema = {
  type: 'object', required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 40, title: '校验时间' } },
};

export async function getRun(ctx: CallContext, input: { id: string }) {
  const r = await TypedTenant.of(ctx.tenant).select('verifyRun').leftJoin('account', 'account.id', 'verifyRun.accountId')
    .select(['verifyRun.id', 'verifyRun.at', 'verifyRun.ms', 'verifyRun.total', 'verifyRun.summary', 'verifyRun.differences', 'account.userName'])
    .where('verifyRun.at', '=', input.id).orderBy('verifyRun.id', 'desc').executeTakeFirst();
  if (!r) throw bizError('COMMON_NOT_FOUND_4004', { entity: '校验记录' });
  const differences = JSON.parse(String(r.differences)) as unknown[];
  return {
    id: Number(r.id), time: String(r.at), at: String(r.at), ms: Number(r.ms), total: Number(r.total), userName: r.userName ?? null,
    ...JSON.parse(String(r.summary)), differences, result: Number(r.total) ? `发现差异 ${Number(r.total)} 处` : '没有差异',
  };
}
