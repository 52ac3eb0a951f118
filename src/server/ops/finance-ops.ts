// Finance calls beyond the document engine's (receipts/payments and opening balances are served from
// src/server/documents/types/pay-document.ts and opening-balance.ts): allocating an advance, the open
// items a party's money can settle, advances, cheques, aging and statements.
import type { OpHandler } from '../catalog/context.ts';
import { ADVANCES_INPUT, listAdvances, OPEN_ITEMS_INPUT, openItemsOf, PROCEEDS_INPUT, proceedsOfDay } from '../domain/finance/advances.ts';
import { CHEQUE_ACTION_INPUT, CHEQUE_LIST_INPUT, chequeAction, listCheques } from '../domain/finance/cheques.ts';
import { allocateMore } from '../domain/finance/pay-document.ts';
import { AGING_INPUT, agingByParty, exportAging, exportStatement, PARTY_ITEMS_INPUT, partyItems, STATEMENT_INPUT, statement } from '../domain/finance/receivables.ts';
import { acceptingFilters } from '../catalog/list-filters.ts';
import { WORK_BENCH_INPUT, workBench } from '../domain/finance/work-bench.ts';
import type { OpsDeps } from './index.ts';

// {id, lines: [{openItemId, amount}]}, or one item named by its number as a clerk types it on the
// document's 核销 form: {id, itemDocNo, allocAmount} (the form may send the document's own values too:
// with itemDocNo given, only these two count)
const ALLOCATE_INPUT = {
  type: 'object', required: ['id'],
  properties: {
    id: { type: 'integer', minimum: 1, maximum: 2_147_483_647, title: '收付款单' },
    itemDocNo: { type: ['string', 'null'], maxLength: 50, title: '款项单号' },
    allocAmount: { type: ['string', 'number', 'null'], maxLength: 20, title: '核销金额' },
    lines: {
      type: 'array', minItems: 1, maxItems: 500, title: '核销明细',
      items: {
        type: 'object', required: ['openItemId', 'amount'],
        properties: { openItemId: { type: 'integer', minimum: 1, maximum: 2_147_483_647, title: '应收应付款项' }, amount: { type: ['string', 'number'], maxLength: 20, title: '核销金额' } },
      },
    },
  },
};

const supplierSide = <T extends { partyType?: unknown }>(input: T): T & { partyType: 'supplier' } => ({ ...input, partyType: 'supplier' });

export function financeOps(_deps: OpsDeps): Record<string, OpHandler> {
  return {
    'payDocument.allocate': { input: ALLOCATE_INPUT, run: (ctx, input) => allocateMore(ctx, input) },
    'finance.openItems': { input: OPEN_ITEMS_INPUT, run: (ctx, input) => openItemsOf(ctx, input) },
    'finance.advances': acceptingFilters({ input: ADVANCES_INPUT, run: (ctx, input) => listAdvances(ctx, input) }),
    'finance.proceedsToday': acceptingFilters({ input: PROCEEDS_INPUT, run: (ctx, input) => proceedsOfDay(ctx, input) }),
    'finance.workBench': acceptingFilters({ input: WORK_BENCH_INPUT, run: (ctx, input) => workBench(ctx, input) }),
    'finance.cheques': acceptingFilters({ input: CHEQUE_LIST_INPUT, run: (ctx, input) => listCheques(ctx, input) }),
    'finance.chequeDeposit': { input: CHEQUE_ACTION_INPUT, run: (ctx, input) => chequeAction(ctx, 'deposit', input) },
    'finance.chequeClear': { input: CHEQUE_ACTION_INPUT, run: (ctx, input) => chequeAction(ctx, 'clear', input) },
    'finance.chequeBounce': { input: CHEQUE_ACTION_INPUT, run: (ctx, input) => chequeAction(ctx, 'bounce', input) },
    'finance.aging': acceptingFilters({ input: AGING_INPUT, run: (ctx, input) => agingByParty(ctx, input) }),
    'finance.exportAging': acceptingFilters({ input: AGING_INPUT, run: (ctx, input) => exportAging(ctx, input) }),
    'finance.partyItems': { input: PARTY_ITEMS_INPUT, run: (ctx, input) => partyItems(ctx, input) },
    'finance.statement': acceptingFilters({ input: STATEMENT_INPUT, run: (ctx, input) => statement(ctx, input) }),
    'finance.exportStatement': acceptingFilters({ input: STATEMENT_INPUT, run: (ctx, input) => exportStatement(ctx, input) }),
    // the payable side under its own rights (financial.accounts_payable): the same reads, always of suppliers
    'finance.payablesAging': acceptingFilters({ input: AGING_INPUT, run: (ctx, input) => agingByParty(ctx, supplierSide(input)) }),
    'finance.exportPayablesAging': acceptingFilters({ input: AGING_INPUT, run: (ctx, input) => exportAging(ctx, supplierSide(input)) }),
    'finance.payableItems': { input: PARTY_ITEMS_INPUT, run: (ctx, input) => partyItems(ctx, supplierSide(input)) },
    'finance.payableStatement': acceptingFilters({ input: STATEMENT_INPUT, run: (ctx, input) => statement(ctx, supplierSide(input)) }),
    'finance.exportPayableStatement': acceptingFilters({ input: STATEMENT_INPUT, run: (ctx, input) => exportStatement(ctx, supplierSide(input)) }),
  };
}
