// Returns to suppliers and repeals: return outbound plans (oms 0217xx) and repeals of procurement
// documents (oms 0218xx). The logic lives in src/server/domain/procurement/{purchase-return,repeal}.ts.
import type { OpHandler } from '../catalog/context.ts';
import { acceptingFilters } from '../catalog/list-filters.ts';
import { ID_INPUT, ID_VERSION_INPUT } from '../domain/procurement/common.ts';
import {
  listLines, PRINT_INPUT, printPlan, removeLine, RETURN_LINE_SAVE_INPUT, RETURN_LINES_INPUT, RETURNABLE_INPUT, returnableLines, returnableNotes, saveLine,
  type ReturnableInput, type ReturnLineSaveInput,
} from '../domain/procurement/purchase-return.ts';
import { procurementRepeals } from '../domain/procurement/repeal.ts';
import { repealOps } from './repeal-ops.ts';
import { KEYWORD_INPUT } from '../domain/procurement/doc-sources.ts';
import type { OpsDeps } from './index.ts';


type IdVersion = { id: number; version?: number };

export function purchaseReturnOps(deps: OpsDeps): Record<string, OpHandler> {
  return {
    // list, get, save, confirm, ship and cancel are served by the document engine
    // (src/server/documents/types/purchase-return.ts)
    'returnPlan.returnable': acceptingFilters({ input: RETURNABLE_INPUT, run: (ctx, input: ReturnableInput) => returnableLines(ctx, input) }),
    'returnPlan.noteOptions': { input: KEYWORD_INPUT, run: (ctx, input: { keyword?: string | null }) => returnableNotes(ctx, input) },
    'returnPlan.lines': acceptingFilters({ input: RETURN_LINES_INPUT, run: (ctx, input: { planId: number; page: number; pageSize: number }) => listLines(ctx, input) }),
    'returnPlan.saveLine': { input: RETURN_LINE_SAVE_INPUT, run: (ctx, input: ReturnLineSaveInput) => saveLine(ctx, input) },
    'returnPlan.removeLine': {
      input: { ...ID_VERSION_INPUT, required: ['id', 'version'], properties: { id: { type: 'integer', minimum: 1, title: '退货明细' }, version: { type: 'integer', minimum: 1, title: '版本' } } },
      run: (ctx, input: { id: number; version: number }) => removeLine(ctx, input),
    },
    'returnPlan.print': { input: PRINT_INPUT, run: (ctx, input: { id?: number | null; docNo?: string | null }) => printPlan(ctx, input) },

    ...repealOps(deps, 'repeal', procurementRepeals),
  };
}
