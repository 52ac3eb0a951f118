// The document types built on the engine, one file each.
import type { DocumentDefinition } from '../definition.ts';
import { deliveryNote } from './delivery-note.ts';
import { deliveryPlan } from './delivery-plan.ts';
import { inboundPlan } from './inbound-plan.ts';
import { inboundTask } from './inbound-task.ts';
import { outboundTask } from './outbound-task.ts';
import { pickingOrder } from './picking-order.ts';
import { openingBalance } from './opening-balance.ts';
import { payDocument } from './pay-document.ts';
import { purchaseInvoice } from './purchase-invoice.ts';
import { purchaseOrder } from './purchase-order.ts';
import { returnPlan } from './purchase-return.ts';
import { putaway } from './putaway.ts';
import { receivingNote } from './receiving-note.ts';
import { salesOrder } from './sales-order.ts';
import { salesReturn } from './sales-return.ts';
import { stockAdjust, stockInit } from './stock-documents.ts';
import { stockTake } from './stock-take.ts';

export const BUILT_IN_DOCUMENTS: DocumentDefinition[] = [
  purchaseOrder, inboundPlan, inboundTask, receivingNote, putaway, stockInit, stockAdjust, returnPlan, purchaseInvoice, salesOrder, deliveryPlan, stockTake,
  outboundTask, pickingOrder, deliveryNote, openingBalance, payDocument, salesReturn,
];
