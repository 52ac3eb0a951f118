// Demo data (README documents it; tests rely on it): companies demo and demo2.
import type { DB, Dialect } from './connection.ts';
import { lockStartup } from './migrate.ts';
import { hashPassword } from '../auth/password.ts';
import { seedSettings } from './seed-settings.ts';
import { seedMasterFamilies } from './seed-master-families.ts';

export const DEMO_PASSWORD = 'demo123';
export const CLERK_RIGHTS = [
  'procurement.supplier',
  'procurement.supplier.edit',
  'procurement.list',
  'procurement.purchaseOrder',
  'procurement.purchaseOrder.edit',
  'procurement.purchaseOrder.confirm',
];
/** The demo warehouse keeper's role 仓管员: the outbound floor (tasks, picking, delivery notes), blind counting, the tablet views, the document chain and stock lookup. */
export const STORE_RIGHTS = [
  'entrepot.outboundTask',
  'entrepot.outboundTaskDetail',
  'entrepot.outboundTask.assign',
  'entrepot.outboundTask.cancel',
  'entrepot.pickingList',
  'entrepot.pickingOrderDetail',
  'entrepot.pickingOrderDetailNew',
  'entrepot.pickingOrder.edit',
  'entrepot.pickingOrder.post',
  'entrepot.deliverGoodsList',
  'entrepot.deliverGoods.add',
  'entrepot.deliverGoodsDetail',
  'entrepot.deliverGoods.edit',
  'entrepot.deliverGoods.post',
  // cartons and loading lists (packing and loading move no stock; the delivery note made from a loaded list does)
  'entrepot.cardboardList',
  'entrepot.cardboardDetail',
  'entrepot.cardboard.edit',
  'entrepot.loadingList',
  'entrepot.loadingDetail',
  'entrepot.loadingListNew',
  'entrepot.loadingList.edit',
  'entrepot.liftingTasks',
  'entrepot.liftingTasks.edit',
  'entrepot.markerTask',
  'entrepot.markerTask.edit',
  'entrepot.intelligentElevator',
  'entrepot.intelligentElevator.edit',
  // receiving on the inbound tasks: purchases and clients' returns (销售退货 tasks), on the return receiving screen
  'entrepot.inboundTaskList',
  'entrepot.inboundTaskDetail',
  'entrepot.returnReceiving',
  'entrepot.receivingNoteDetail',
  'entrepot.receivingNote.edit',
  'entrepot.receivingNote.post',
  // counting (blind: no variances, no posting — a supervisor's), the tablet views, single-piece scans
  'entrepot.takeStock',
  'entrepot.takeStock.count',
  'ipad',
  'ipad.inventory',
  'entrepot.singleRecord',
  'entrepot.singleRecord.edit',
  'docRelate',
  'commodity.inventory',
  // packaging specs (包装规格): what goes into a carton, read while packing
  'commodity.packing',
];
/** The demo sales clerk's role 销售员: clients, sales orders (edit and confirm), outbound plans, repeals of sales documents, stock lookup, the sales report — no override of price or credit bounds. */
export const SALES_RIGHTS = [
  'market.client',
  'market.client.edit',
  // clients' delivery addresses and the contacts of clients (and suppliers)
  'market.clientAddress',
  'market.clientAddress.edit',
  'market.clientAddress.remove',
  'market.contact',
  'market.contact.edit',
  'market.contact.remove',
  'market.list',
  'market.order',
  'market.orderDetail',
  'market.order.edit',
  'market.order.confirm',
  'market.order.change',
  'market.order.import',
  'market.deliveryPlan',
  'market.deliveryPlanOrder',
  'market.deliveryPlanOrderDetail',
  'market.deliveryPlan.edit',
  'market.deliveryPlan.confirm',
  'market.repeal',
  'market.repealDetail',
  'market.repeal.edit',
  // sales invoices: made from delivered notes and printed; posting is the accountant's
  'market.invoice',
  'market.invoiceDetail',
  'market.invoice.edit',
  'market.invoiceLook',
  // proforma invoices: offers from an order, never on the ledger
  'market.invoiceDetailModality',
  'market.invoiceModalityAdd',
  'market.invoiceModality.edit',
  // 形式发票红冲: withdrawing an issued proforma, never on the ledger
  'market.invoiceModalityBack',
  'market.invoiceModalityBack.edit',
  'market.salesReturn',
  'market.salesReturnDetail',
  'market.salesReturn.edit',
  'market.salesReturn.confirm',
  'commodity.inventory',
  'commodity.activity',
  'commodity.activityDetail',
  'commodity.productAcList',
  'reportForms.sale',
  'reportForms.sale.export',
  'reportForms.makeBallot',
  'reportForms.makeBallot.export',
  'reportForms.direct_selling',
  'reportForms.direct_selling.export',
  // 导出中心: where the reports' background exports land
  'reportForms.download',
];

/** The demo accountant's role 会计: receipts and payments (post, reverse, allocate, cheques), opening balances, receivables and payables, advances, cheques, the daily closing and its report. */
export const FINANCE_RIGHTS = [
  'financial.workBench',
  'financial.pay_document',
  'financial.pay_document_detail',
  'financial.pay_document.edit',
  'financial.pay_document.post',
  'financial.accounts_receivable',
  'financial.accounts_receivable_detail',
  'financial.accounts_payable',
  'financial.accounts_payable_detail',
  'financial.openingBalance.edit',
  'financial.advances',
  // refunds of advances (退款单): a client's advance paid back, a supplier's prepayment returned
  'financial.advance_refund',
  'financial.advance_refund.edit',
  'financial.maturedCheck',
  'financial.proceedsToday',
  // the company's bank accounts (kept by the accountant), the payment terms and tax rates (read)
  'baseConfig.bankAccount',
  'baseConfig.bankAccount.edit',
  'baseConfig.paymentTerm',
  'baseConfig.taxRate',
  // sales invoices: posted (the receivable) and cancelled by the accountant
  'market.invoice',
  'market.invoiceDetail',
  'market.invoice.post',
  'market.invoice.cancel',
  'market.invoiceLook',
  // red (credit) invoices against posted sales invoices
  'market.invoiceDetailBack',
  'market.invoiceBack.edit',
  'market.invoiceBack.post',
  // discount invoices (销售折让 over one or several invoices)
  'market.invoiceDiscountTicket',
  'market.invoiceDiscountTicketAdd',
  'market.invoiceDiscount.edit',
  'market.invoiceDiscount.post',
  // prepayment invoices (预收款发票: asked before delivery, deducted on the order's invoices once paid)
  'market.invoicePrepayment',
  'market.invoicePrepaymentAdd',
  'reportForms.clapper',
  'reportForms.clapper.export',
  'reportForms.clapper.close',
  'reportForms.receivable',
  'reportForms.receivable.export',
  'reportForms.dealWith',
  'reportForms.dealWith.export',
  'reportForms.finance',
  'reportForms.finance.export',
  // stock moved outside purchases and sales, valued (opening stock, variances, adjustments, returns)
  'reportForms.other',
  'reportForms.other.export',
  'reportForms.download',
];

interface CompanySeed {
  code: string;
  name: string;
  flags: Record<string, boolean>;
  currencies: Array<{ code: string; currencyName: string; currencyCharacter: string; isBase?: boolean; rate?: string }>;
}

const stamp = (companyId: number, now: string) => ({ companyId, version: 1, createdAt: now, updatedAt: now });

async function insertId(db: DB, table: string, values: Record<string, unknown>): Promise<number> {
  const row = await db.insertInto(table).values(values).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

async function seedCompany(db: DB, c: CompanySeed, passwordHash: string): Promise<{ companyId: number; adminRoleId: number }> {
  const now = new Date().toISOString();
  const companyId = await insertId(db, 'company', {
    code: c.code, name: c.name, timeZone: 8, defaultLanguage: 'zh-CN', receMultiple: '1.1', limitMultiple: '0.8',
    ceilingMultiple: '1.5', addRooType: 0, containerTypes: JSON.stringify(['20GP', '40GP', '40HQ']),
    flags: JSON.stringify(c.flags), enabled: 1, version: 1, createdAt: now, updatedAt: now,
  });
  const s = stamp(companyId, now);
  let baseId = 0;
  for (const cur of c.currencies) {
    const id = await insertId(db, 'currency', { ...s, code: cur.code, currencyName: cur.currencyName, currencyCharacter: cur.currencyCharacter, isBase: cur.isBase ? 1 : 0, enabled: 1 });
    if (cur.isBase) baseId = id;
    if (cur.rate) {
      // rates are scaled by 1e6 (exact); "7.123400" → 7123400
      const [i, f = ''] = cur.rate.split('.');
      await db.insertInto('exchangeRate').values({ ...s, currencyId: id, rateDate: '2026-01-01', rate: Number(i) * 1e6 + Number((f + '000000').slice(0, 6)) }).execute();
    }
  }
  await db.updateTable('company').set({ currencyId: baseId }).where('id', '=', companyId).execute();
  const warehouseId = await insertId(db, 'warehouse', { ...s, code: 'WH01', name: '主仓库', address: '上海市浦东新区', enabled: 1 });
  const purchasePriceId = await insertId(db, 'priceTitle', { ...s, code: 'PP01', name: '标准采购价', kind: 'purchase', currencyId: baseId, enabled: 1 });
  const salePriceId = await insertId(db, 'priceTitle', { ...s, code: 'SP01', name: '标准销售价', kind: 'sale', currencyId: baseId, enabled: 1 });
  const deptId = await insertId(db, 'department', { ...s, code: 'D01', name: '总经办', sort: 1 });
  const buyDeptId = await insertId(db, 'department', { ...s, code: 'D02', name: '采购部', sort: 2, parentId: deptId });
  const adminStaff = await insertId(db, 'staff', { ...s, code: 'E001', name: '系统管理员', departmentId: deptId, enabled: 1 });
  const adminRoleId = await insertId(db, 'role', { ...s, name: '管理员', allRights: 1, rights: '[]', remark: '拥有全部权限' });
  await insertId(db, 'account', {
    ...s, userName: 'admin', staffId: adminStaff, passwordHash, enabled: 1, roleIds: JSON.stringify([adminRoleId]),
    warehouseId, purchasePriceId, salePriceId,
  });
  // units of measure (cdm 0106; cdm 010214 and the dictionary `unit` read them): name, code, decimals
  for (const [i, [name, code, decimals]] of ([['个', 'PCS', 0], ['件', 'PCE', 0], ['盒', 'BOX', 0], ['包', 'PKG', 0], ['箱', 'CTN', 0], ['套', 'SET', 0], ['千克', 'KG', 3]] as const).entries()) {
    await db.insertInto('measureUnit').values({ ...s, code, name, decimals, sort: i, enabled: 1 }).execute();
  }
  void buyDeptId;
  return { companyId, adminRoleId };
}

/**
 * Seeds the demo companies into an empty database. Safe for several processes starting at once: the
 * emptiness check runs inside the seeding transaction, under the start-up lock (migrate.ts), so exactly
 * one of them seeds and the others find the companies.
 */
export async function seedIfEmpty(db: DB, dialect: Dialect): Promise<boolean> {
  const quick = await db.selectFrom('company').select('id').limit(1).executeTakeFirst();
  if (quick) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return db.transaction().execute(async (trx) => {
    await lockStartup(trx, dialect);
    const any = await trx.selectFrom('company').select('id').limit(1).executeTakeFirst();
    if (any) return false;
    const demo = await seedCompany(trx, {
      code: 'demo', name: '演示贸易有限公司',
      flags: { multiCurrency: true, containerManagement: true, presale: true, invoiceStock: true },
      currencies: [
        { code: 'CNY', currencyName: '人民币', currencyCharacter: '¥', isBase: true },
        { code: 'USD', currencyName: '美元', currencyCharacter: '$', rate: '7.1234' },
        { code: 'EUR', currencyName: '欧元', currencyCharacter: '€', rate: '7.7856' },
      ],
    }, passwordHash);
    const now = new Date().toISOString();
    const s = stamp(demo.companyId, now);
    const buyDept = await trx.selectFrom('department').select('id').where('companyId', '=', demo.companyId).where('code', '=', 'D02').executeTakeFirstOrThrow();
    const clerkStaff = await insertId(trx, 'staff', { ...s, code: 'E002', name: '采购员小王', departmentId: buyDept.id, enabled: 1 });
    const clerkRole = await insertId(trx, 'role', { ...s, name: '采购员', allRights: 0, rights: JSON.stringify(CLERK_RIGHTS) });
    const wh = await trx.selectFrom('warehouse').select('id').where('companyId', '=', demo.companyId).executeTakeFirstOrThrow();
    await insertId(trx, 'account', { ...s, userName: 'clerk', staffId: clerkStaff, passwordHash, enabled: 1, roleIds: JSON.stringify([clerkRole]), warehouseId: wh.id });
    const top = await trx.selectFrom('department').select('id').where('companyId', '=', demo.companyId).where('code', '=', 'D01').executeTakeFirstOrThrow();
    const saleDept = await insertId(trx, 'department', { ...s, code: 'D03', name: '销售部', sort: 3, parentId: top.id });
    const salesStaff = await insertId(trx, 'staff', { ...s, code: 'E003', name: '销售员小李', departmentId: saleDept, enabled: 1 });
    const salesRole = await insertId(trx, 'role', { ...s, name: '销售员', allRights: 0, rights: JSON.stringify(SALES_RIGHTS) });
    await insertId(trx, 'account', { ...s, userName: 'sales', staffId: salesStaff, passwordHash, enabled: 1, roleIds: JSON.stringify([salesRole]), warehouseId: wh.id });
    const storeDept = await insertId(trx, 'department', { ...s, code: 'D05', name: '仓储部', sort: 4, parentId: top.id });
    const storeStaff = await insertId(trx, 'staff', { ...s, code: 'E004', name: '仓管员小张', departmentId: storeDept, enabled: 1 });
    const storeRole = await insertId(trx, 'role', { ...s, name: '仓管员', allRights: 0, rights: JSON.stringify(STORE_RIGHTS) });
    await insertId(trx, 'account', { ...s, userName: 'store', staffId: storeStaff, passwordHash, enabled: 1, roleIds: JSON.stringify([storeRole]), warehouseId: wh.id });
    // no department of its own: the department tree stays as the settings tests know it
    const financeStaff = await insertId(trx, 'staff', { ...s, code: 'E005', name: '会计小张', enabled: 1 });
    const financeRole = await insertId(trx, 'role', { ...s, name: '会计', allRights: 0, rights: JSON.stringify(FINANCE_RIGHTS) });
    await insertId(trx, 'account', { ...s, userName: 'finance', staffId: financeStaff, passwordHash, enabled: 1, roleIds: JSON.stringify([financeRole]), warehouseId: wh.id });
    await insertId(trx, 'supplier', { ...s, code: 'S001', name: '宁波华东五金制品厂', contact: '陈经理', phone: '0574-88886666', paymentDays: 30, enabled: 1 });
    await insertId(trx, 'client', { ...s, code: 'C001', name: '杭州百货贸易公司', contact: '李小姐', phone: '0571-86668888', creditLimit: 5_000_000, enabled: 1 });
    await seedSettings(trx, demo.companyId);
    await seedMasterFamilies(trx, demo.companyId);
    await seedCompany(trx, {
      code: 'demo2', name: '第二演示公司', flags: {},
      currencies: [{ code: 'CNY', currencyName: '人民币', currencyCharacter: '¥', isBase: true }],
    }, passwordHash);
    return true;
  });
}
