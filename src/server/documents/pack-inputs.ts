// A line quantity entered as big/mid/small packs instead of small units (turned into small units with
// the product's pack sizes by the document's validate hook): the inputs, range-checked with the body.
import { MAX_MOVE_QTY } from '../domain/stock/ledger.ts';
import type { LineDef } from './definition.ts';

const QTY = { type: ['integer', 'null'], minimum: -MAX_MOVE_QTY, maximum: MAX_MOVE_QTY };

export const packInputs = {
  big: { ...QTY, title: '大包装数' },
  mid: { ...QTY, title: '中包装数' },
  small: { ...QTY, title: '最小单位数' },
};

/**
 * The lines of a plan drawn from an order's lines (an inbound plan from a purchase order, an outbound
 * plan from a sales order): which order line, its product (read, with its packs), how much is planned —
 * in small units or packs — and a remark.
 */
export function orderPlanLines(table: string) {
  return {
    table,
    parent: 'planId',
    max: 2000,
    fields: {
      orderLineId: { type: 'integer', title: '订单明细', required: true, min: 1, max: 2_147_483_647 },
      productId: { type: 'reference', resource: 'product', title: '商品', readonly: true },
      qty: { type: 'integer', title: '计划数量', min: 0, max: MAX_MOVE_QTY },
      remark: { type: 'string', title: '备注', maxLength: 200 },
    },
    reads: { productId: ['specification', 'bigQty', 'midQty', 'unitBig', 'unitMid', 'unitSmall'] },
    inputs: packInputs,
  } satisfies LineDef;
}
