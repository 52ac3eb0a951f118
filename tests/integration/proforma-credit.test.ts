// 形式发票红冲 (issue 15): an issued proforma withdrawn wholly or in part with a reason — never beyond what is left of
// each line (also when two are issued at once), never on the ledger, undone by its cancellation; the order's warning
// counts what is left; the proforma is not cancelled under an issued withdrawal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startTestServer, type TestServer } from './helpers.ts';

const SO = { save: '020903', get: '020902', confirm: '020905' };
const PF = { save: '022433', get: '022432', cancel: '022435' };
const PFC = { list: '022451', get: '022452', save: '022453', confirm: '022454', cancel: '022455', lines: '022457' };

let t: TestServer;
let admin: string;
let wh: number;
let listId: number;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  wh = (await ok(t.call('cdm', '011003', { code: 'HCW', name: '红冲仓' }, admin))).id;
  listId = Number((await t.database.db.selectFrom('priceTitle').select('id').where('code', '=', 'SP01').executeTakeFirstOrThrow()).id);
});
afterAll(async () => t?.close());

/** A confirmed order of two lines (10 × 9.00 and 5 × 2.00) and its issued proforma by quantity (100.00). */
async function issuedProforma(suffix: string) {
  const ids: number[] = [];
  for (const [code, price] of [[`HC${suffix}A`, '9'], [`HC${suffix}B`, '2']] as const) {
    const id = (await ok(t.call('cdm', '010203', { code, name: `红冲商品${code}`, unitSmall: '个' }, admin))).id as number;
    await ok(t.call('cdm', '014031', { productId: id, priceTitleId: listId, price }, admin));
    ids.push(id);
  }
  const clientId = (await ok(t.call('cdm', '011703', { code: `HK${suffix}`, name: `红冲客户${suffix}`, priceTitleId: listId, creditLimit: '0', backOrderPolicy: 'keep' }, admin))).id as number;
  const so = await ok(t.call('oms', SO.save, { clientId, warehouseId: wh, presale: false, lines: [{ productId: ids[0], qty: 10 }, { productId: ids[1], qty: 5 }] }, admin));
  const pf = await ok(t.call('oms', PF.save, { orderId: so.id, mode: 'qty', taxRate: '13', confirm: true }, admin));
  return { so, pf: await ok(t.call('oms', PF.get, { id: pf.id }, admin)), clientId };
}

describe('形式发票红冲', () => {
  it('withdraws part of an issued proforma with a reason, never beyond what is left, and gives it back when cancelled', async () => {
    const { so, pf } = await issuedProforma('1');
    expect(pf).toMatchObject({ status: 'confirmed', totalAmount: '100.00' });
    expect(pf.actions).toEqual(expect.arrayContaining([expect.objectContaining({ label: '红冲', to: '/market/invoiceModalityBack?proformaId={id}' })]));
    const [l1, l2] = pf.lines;
    // the new page's lines: what is left of each
    expect((await ok(t.call('oms', PFC.lines, { proformaId: pf.id }, admin))).list.map((l: any) => [l.proformaLineId, l.leftAmount])).toEqual([[l1.id, '90.00'], [l2.id, '10.00']]);

    // no reason, or more than the line: refused in Chinese, nothing saved
    const before = (await ok(t.call('oms', PFC.list, { page: 1, pageSize: 50 }, admin))).total;
    const noReason = await t.call('oms', PFC.save, { proformaId: pf.id, lines: [{ proformaLineId: l1.id, amount: '10' }] }, admin);
    expect(noReason.code).toBe('COMMON_VALIDATION_4000');
    expect(noReason.msg).toContain('红冲原因');
    const over = await t.call('oms', PFC.save, { proformaId: pf.id, reason: 'orderChange', lines: [{ proformaLineId: l1.id, amount: '90.01' }] }, admin);
    expect(over.code).toBe('COMMON_VALIDATION_4000');
    expect(over.msg).toContain(`第 1 行：形式发票 ${pf.docNo} 商品 HC1A 价税合计 90.00，已红冲 0.00，本次 90.01，最多还可红冲 90.00`);
    expect((await ok(t.call('oms', PFC.list, { page: 1, pageSize: 50 }, admin))).total).toBe(before);

    // 30.00 of the first line, issued in the same call: the proforma's line keeps it, nothing on the ledger
    const red = await ok(t.call('oms', PFC.save, { proformaId: pf.id, reason: 'orderChange', remark: '客户减量', confirm: true, lines: [{ proformaLineId: l1.id, amount: '30' }] }, admin));
    let doc = await ok(t.call('oms', PFC.get, { id: red.id }, admin));
    expect(doc).toMatchObject({ status: 'confirmed', statusText: '已出具', proformaDocNo: pf.docNo, reason: 'orderChange', totalAmount: '30.00', taxAmount: '3.45', clientName: '红冲客户1' });
    expect(doc.lines.map((l: any) => [l.productCode, l.proformaAmount, l.amount, l.leftAmount])).toEqual([['HC1A', '90.00', '30.00', '60.00']]);
    expect(doc.route).toBe(`/market/invoiceModalityBack/${red.id}`);
    // the proforma cannot be cancelled under it
    const cancelPf = await t.call('oms', PF.cancel, { id: pf.id }, admin);
    expect(cancelPf.msg).toContain(`形式发票 ${pf.docNo} 已有红冲 ${red.docNo}，请先作废红冲`);
    expect((await ok(t.call('oms', PF.get, { id: pf.id }, admin))).status).toBe('confirmed');

    // without lines: all that is left (60.00 + 10.00)
    const rest = await ok(t.call('oms', PFC.save, { proformaId: pf.id, reason: 'clientCancel' }, admin));
    doc = await ok(t.call('oms', PFC.get, { id: rest.id }, admin));
    expect(doc).toMatchObject({ status: 'draft', totalAmount: '70.00' });
    // the first red cancelled meanwhile gives its 30.00 back; then issuing the rest still fits
    await ok(t.call('oms', PFC.cancel, { id: red.id }, admin));
    expect((await ok(t.call('oms', PFC.lines, { proformaId: pf.id }, admin))).list.map((l: any) => l.leftAmount)).toEqual(['90.00', '10.00']);
    await ok(t.call('oms', PFC.confirm, { id: rest.id }, admin));
    expect((await ok(t.call('oms', PFC.lines, { proformaId: pf.id }, admin))).list.map((l: any) => l.leftAmount)).toEqual(['30.00', '0.00']);
    // the document chain: order → proforma → its withdrawal
    const chain = (await ok(t.call('oms', '025001', { docNo: so.docNo }, admin))).chain.map((c: any) => `${c.docTypeText} ${c.number}`);
    expect(chain).toEqual(expect.arrayContaining([`形式发票 ${pf.docNo}`, `形式发票红冲 ${rest.docNo}`]));
  });

  it('of two withdrawals issued at once over the same amount, exactly one goes through', async () => {
    const { pf } = await issuedProforma('2');
    const [l1] = pf.lines;
    const drafts = await Promise.all([1, 2].map(() => ok(t.call('oms', PFC.save, { proformaId: pf.id, reason: 'wrong', lines: [{ proformaLineId: l1.id, amount: '60' }] }, admin))));
    const answers = await Promise.all(drafts.map((d) => t.call('oms', PFC.confirm, { id: d.id }, admin)));
    expect(answers.map((a) => a.code).sort()).toEqual(['200', 'COMMON_VALIDATION_4000']);
    expect(answers.find((a) => a.code !== '200')!.msg).toContain('最多还可红冲 30.00');
    expect((await ok(t.call('oms', PFC.lines, { proformaId: pf.id }, admin))).list[0].leftAmount).toBe('30.00');
  });

  it('refuses a draft proforma, keeps to rights and to the caller\'s company', async () => {
    const { so, pf } = await issuedProforma('3');
    const draft = await ok(t.call('oms', PF.save, { orderId: so.id, mode: 'qty' }, admin));
    const notIssued = await t.call('oms', PFC.save, { proformaId: draft.id, reason: 'other' }, admin);
    expect(notIssued.msg).toContain('尚未出具或已作废，不能红冲');
    const sales = await t.login('demo', 'sales');
    const made = await ok(t.call('oms', PFC.save, { proformaId: pf.id, reason: 'other', lines: [{ proformaLineId: pf.lines[1].id, amount: '1' }] }, sales));
    expect(made.status).toBe('draft');
    const store = await t.login('demo', 'store');
    expect((await t.call('oms', PFC.list, { page: 1, pageSize: 5 }, store)).code).toBe('COMMON_NO_RIGHT_4003');
    const other = await t.login('demo2');
    expect((await t.call('oms', PFC.get, { id: made.id }, other)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('oms', PFC.save, { proformaId: pf.id, reason: 'other', lines: [{ proformaLineId: pf.lines[1].id, amount: '1' }] }, other)).msg).toContain('形式发票不存在');
  });
});
