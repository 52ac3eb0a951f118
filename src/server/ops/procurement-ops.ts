// Procure-to-stock calls: purchase orders (oms 0202xx), receiving notes (0214xx), putaways (0215xx) and the
// document chain (0250xx). The logic lives in src/server/domain/procurement/.
import type { OpHandler } from '../catalog/context.ts';
import { acceptingFilters } from '../catalog/list-filters.ts';
import { ID_INPUT, ID_VERSION_INPUT } from '../domain/procurement/common.ts';
import { copyOrder } from '../domain/procurement/purchase-order.ts';
import { suggestPutaway } from '../domain/procurement/putaway.ts';
import { PICK_INPUT, pickProducts, type PickInput } from '../domain/procurement/product-pick.ts';
import { docRelate } from '../domain/procurement/relate.ts';
import { KEYWORD_INPUT, notesToPutAway, receivableOrders, receivingSource } from '../domain/procurement/doc-sources.ts';
import { findByNumber } from '../documents/index.ts';
import { ApiError } from '../http/errors.ts';
import { keptList } from '../resources/page-cache.ts';
import type { OpsDeps } from './index.ts';


type IdVersion = { id: number; version?: number };

export function procurementOps(deps: OpsDeps): Record<string, OpHandler> {
  return {
    // list, get, save, remove, confirm, cancel and close are served by the document engine
    // (src/server/documents/types/purchase-order.ts)
    'purchaseOrder.copy': { input: ID_INPUT, run: (ctx, input: { id: number }) => copyOrder(ctx, input.id) },
    'purchaseOrder.pickProducts': { input: PICK_INPUT, run: (ctx, input: PickInput) => pickProducts(ctx, input) },

    // list, get, save, post and cancel of receiving notes: the document engine (documents/types/receiving-note.ts)
    'receivingNote.orderOptions': { input: KEYWORD_INPUT, run: (ctx, input: { keyword?: string | null }) => receivableOrders(ctx, input) },
    'receivingNote.source': {
      input: { type: 'object', required: ['orderId'], properties: { orderId: { type: 'integer', minimum: 1, title: '采购订单' }, taskId: { type: ['integer', 'null'], minimum: 1, title: '入库任务' } } },
      run: (ctx, input: { orderId: number; taskId?: number | null }) => receivingSource(ctx, input.orderId, input.taskId ?? undefined),
    },
    'putaway.noteOptions': { input: KEYWORD_INPUT, run: (ctx, input: { keyword?: string | null }) => notesToPutAway(ctx, input) },

    // list, get, save, post and cancel of putaways: the document engine (documents/types/putaway.ts)
    'putaway.suggest': {
      input: { type: 'object', required: ['receivingNoteId'], properties: { receivingNoteId: { type: 'integer', minimum: 1, title: '收货单' } } },
      run: (ctx, input: { receivingNoteId: number }) => suggestPutaway(ctx, input.receivingNoteId),
    },

    'docRelate.chain': acceptingFilters({
      input: { type: 'object', required: ['docNo'], properties: { docNo: { type: 'string', minLength: 1, maxLength: 50, title: '单号' } } },
      // `list` too: the chain is drawn by the generic list renderer.
      run: async (ctx, input: { docNo: string }) => {
        // The procurement chain (order → plans → tasks → notes → putaways → invoices) is read by hand
        // until all of its documents are on the engine; other documents on the engine answer for themselves.
        try {
          const r = await docRelate(ctx, input);
          return { ...r, list: r.chain, total: r.chain.length };
        } catch (e) {
          if (!(e instanceof ApiError) || e.code !== 'PURCHASE_DOC_NOT_FOUND_4097') throw e;
          const onEngine = await findByNumber(ctx, deps.documents, input.docNo.trim());
          if (!onEngine) throw e;
          return onEngine.type.relate(ctx, onEngine.id, deps.documents);
        }
      },
    }),
  };
}
