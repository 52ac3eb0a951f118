// The document types built on the engine, one file each.
import type { DocumentDefinition } from '../definition.ts';
import { advanceRefund } from './advance-refund.ts';
import { carton } from './carton.ts';
import { deliveryNote } from './delivery-note.ts';
import { elevatorTask } from './elevator-task.ts';
import { liftingTask } from './lifting-task.ts';
import { markerTask } from './marker-task.ts';
import { loadingList } from './loading-list.ts';
import { deliveryPlan } from './delivery-plan.ts';
import { inboundPlan } from './inbound-plan.ts';
import { inboundTask } from './inbound-task.ts';
import { outboundTask } from './outbound-task.ts';
import { pickingOrder } from './picking-order.ts';
import { openingBalance } from './opening-balance.ts';
import { payDocument } from './pay-document.ts';
import { prepaymentInvoice } from './prepayment-invoice.ts';
import { proformaCredit } from './proforma-credit.ts';
import { proformaInvoice } from './proforma-invoice.ts';
import { purchaseInvoice } from './purchase-invoice.ts';
import { purchaseOrder } from './purchase-order.ts';
import { returnPlan } from './purchase-return.ts';
import { putaway } from './putaway.ts';
import { receivingNote } from './receiving-note.ts';
import { salesCredit } from './sales-credit.ts';
import { salesDiscount } from './sales-discount.ts';
import { salesInvoice } from './sales-invoice.ts';
import { salesOrder } from './sales-order.ts';
import { salesReturn } from './sales-return.ts';
import { stockAdjust, stockInit } from './stock-documents.ts';
import { stockTake } from './stock-take.ts';

export const BUILT_IN_DOCUMENTS: DocumentDefinition[] = [
  purchaseOrder, inboundPlan, inboundTask, receivingNote, putaway, stockInit, stockAdjust, returnPlan, purchaseInvoice, salesOrder, deliveryPlan, stockTake,
  outboundTask, pickingOrder, carton, loadingList, deliveryNote, liftingTask, markerTask, elevatorTask, openingBalance, payDocument,
  salesInvoice, salesCredit, salesDiscount, proformaInvoice, prepaymentInvoice,
  salesReturn, proformaCredit, advanceRefund,
];
