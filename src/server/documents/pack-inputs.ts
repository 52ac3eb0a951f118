// A line quantity entered as big/mid/small packs instead of small units (turned into small units with
// the product's pack sizes by the document's validate hook): the inputs, range-checked with the body.
import { MAX_MOVE_QTY } from '../domain/stock/ledger.ts';

const QTY = { type: ['integer', 'null'], minimum: -MAX_MOVE_QTY, maximum: MAX_MOVE_QTY };

export const packInputs = {
  big: { ...QTY, title: '大包装数' },
  mid: { ...QTY, title: '中包装数' },
  small: { ...QTY, title: '最小单位数' },
};
