// Print marks (打印标记): how often and by whom each document was printed, counted per company,
// document type and number.
import type { CallContext } from '../../catalog/context.ts';
import { typed } from '../../db/typed.ts';
import { resolvePrintableDocs } from '../printable-docs.ts';

export async function signPrinted(ctx: CallContext, docType: string, soIdList: Array<string | number>) {
  const now = new Date().toISOString();
  const by = ctx.caller!.userName;
  // Only documents of the caller's company, recorded under their numbers; one unknown refuses all.
  const docNos = await resolvePrintableDocs(ctx.tenant, docType, soIdList);
  await ctx.transaction(async (db, t) => {
    for (const docId of docNos) {
      // One upsert per document, counted in SQL: two clerks printing at once both count.
      await typed(db).insertInto('printRecord')
        .values({ companyId: t.companyId, docType, docId, printCount: 1, firstPrintedAt: now, lastPrintedAt: now, lastPrintedBy: by })
        .onConflict((oc) => oc.columns(['companyId', 'docType', 'docId']).doUpdateSet((eb) => ({
          printCount: eb('printRecord.printCount', '+', 1), lastPrintedAt: now, lastPrintedBy: by,
        })))
        .execute();
    }
  });
  return { count: docNos.length };
}
