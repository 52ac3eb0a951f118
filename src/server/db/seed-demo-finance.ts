// The demo company's finance data (part of the walkable demo, seed-demo-walk.ts): opening receivables
// (期初应收) of the two demo clients in CNY and USD, one bank receipt partly settling the oldest of them,
// and a post-dated cheque waiting to mature — written through the server's own endpoints as the demo admin.
type Row = Record<string, any>;
/** An endpoint's answer (`data`): a record, a page of them (`list`) or a document with its `lines`. */
type Answer = Row & { list: Row[]; lines: Row[] };
type Call = (family: 'cdm' | 'oms', code: string, body: Row) => Promise<Answer>;

export async function seedDemoFinance(call: Call): Promise<void> {
  const clients = (await call('cdm', '011701', { page: 1, pageSize: 10 })).list;
  const hangzhou = Number(clients.find((c) => c.code === 'C001')!.id);
  const shanghai = Number(clients.find((c) => c.code === 'C002')!.id);
  const currencies = (await call('cdm', '012101', { page: 1, pageSize: 10 })).list;
  const usd = Number(currencies.find((c) => c.code === 'USD')!.id);
  const opening = (clientId: number, reference: string, docDate: string, dueDate: string, amount: string, currencyId?: number) =>
    call('oms', '026213', { side: 'receivable', clientId, reference, docDate, dueDate, amount, currencyId, remark: '演示：系统上线前的未收款', post: true });
  const oldest = await opening(hangzhou, 'XS-2026-0815', '2026-08-15', '2026-09-14', '12800.00');
  await opening(hangzhou, 'XS-2026-1020', '2026-10-20', '2026-11-19', '5600.00');
  await opening(hangzhou, 'XS-2026-1101', '2026-11-01', '2026-12-31', '1500.00', usd);
  const shanghaiItem = await opening(shanghai, 'XS-2026-1110', '2026-11-10', '2026-12-10', '8000.00');
  const items = async (clientId: number) => (await call('oms', '026010', { partyType: 'client', partyId: clientId })).list;
  const first = (await items(hangzhou)).find((i) => i.docNo === oldest.docNo)!;
  await call('oms', '026003', {
    direction: 'receipt', clientId: hangzhou, payDate: '2026-10-08', amount: '5000.00', method: 'bank', account: '工商银行 1202 0000 8888', remark: '演示：部分收款',
    post: true, lines: [{ openItemId: first.id, amount: '5000.00' }],
  });
  const item = (await items(shanghai)).find((i) => i.docNo === shanghaiItem.docNo)!;
  await call('oms', '026003', {
    direction: 'receipt', clientId: shanghai, payDate: '2026-11-12', amount: '3000.00', method: 'cheque', chequeNo: 'ZP 20261205-01', chequeDate: '2026-12-05', remark: '演示：远期支票',
    post: true, lines: [{ openItemId: item.id, amount: '3000.00' }],
  });
}
