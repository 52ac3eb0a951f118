// The demo company's sales data (part of the walkable demo, seed-demo-walk.ts): sale prices for the demo
// products on the standard sale list (SP01), a second client, and sales orders in each reachable state —
// a draft, and a confirmed order whose stock is committed, with a draft outbound plan of it — written through the server's own endpoints
// as the demo admin, like the rest of the walk.
type Row = Record<string, any>;
/** An endpoint's answer (`data`): a record, a page of them (`list`) or a document with its `lines`. */
type Answer = Row & { list: Row[]; lines: Row[] };
type Call = (family: 'cdm' | 'oms', code: string, body: Row) => Promise<Answer>;

export const DEMO_SALE_PRICES: Record<string, string> = { 'DM-1001': '0.60', 'DM-1002': '0.25', 'DM-1003': '0.06', 'DM-2001': '25.00', 'DM-2002': '18.00' };

export async function seedDemoSales(call: Call, warehouseId: number, productIds: Record<string, number>): Promise<void> {
  const lists = (await call('cdm', '014001', { page: 1, pageSize: 20 })).list;
  const saleList = Number(lists.find((l) => l.code === 'SP01')!.id);
  for (const [code, price] of Object.entries(DEMO_SALE_PRICES)) await call('cdm', '014031', { productId: productIds[code], priceTitleId: saleList, price });
  const clients = (await call('cdm', '011701', { page: 1, pageSize: 10 })).list;
  const hangzhou = Number(clients.find((c) => c.code === 'C001')!.id);
  const shanghai = Number((await call('cdm', '011703', {
    code: 'C002', name: '上海优品百货有限公司', contact: '王先生', phone: '021-63335555', address: '上海市黄浦区南京东路 100 号',
    priceTitleId: saleList, creditLimit: '20000', backOrderPolicy: 'keep', enabled: true,
  })).id);
  const order = (clientId: number, lines: Array<[string, number]>, remark: string) =>
    call('oms', '020903', { clientId, warehouseId, deliveryDate: '2026-12-20', paymentTerms: '月结 30 天', remark, lines: lines.map(([code, qty]) => ({ productId: productIds[code], qty })) });
  // 草稿: an order still being typed.
  await order(hangzhou, [['DM-1001', 200], ['DM-1002', 300]], '演示：草稿');
  // 已确认: its stock committed (the inventory shows it reserved).
  const confirmed = await order(shanghai, [['DM-1001', 500], ['DM-2001', 12]], '演示：已确认，库存已预留');
  await call('oms', '020905', { id: confirmed.id, version: confirmed.version });
  // 发货计划 (草稿) of all of it: confirming it gives the warehouse its outbound task (the outbound floor's walk starts here).
  const lines = (await call('oms', '020902', { id: confirmed.id })).lines;
  await call('oms', '020703', { orderId: confirmed.id, transportMode: 'truck', carrier: '顺丰物流', remark: '演示：草稿，确认后生成出库任务', lines: lines.map((l) => ({ orderLineId: l.id, qty: l.qty })) });
}
