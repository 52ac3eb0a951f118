// Issue 19, item 10: a print mark (oms 023803) records only documents of the caller's company. An id
// or number that is not one — made up, markup, another company's purchase order — refuses the whole
// mark with a clear message and records nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startTestServer, type TestServer } from '../integration/helpers.ts';

let t: TestServer;
let demo: string;
let demo2: string;

/** The first row of a list, created when the company has none (demo2 starts nearly empty). */
async function firstOr(token: string, list: string, save: string, values: Record<string, unknown>): Promise<number> {
  const row = (await ok(t.call('cdm', list, { page: 1, pageSize: 1 }, token))).list[0];
  return row ? row.id : (await ok(t.call('cdm', save, values, token))).id;
}

async function purchaseOrder(token: string) {
  const wh = await firstOr(token, '011001', '011003', { code: 'PW1', name: '打印测试仓' });
  const supplierId = await firstOr(token, '011601', '011603', { code: 'PS1', name: '打印测试供应商' });
  const code = `PRT${Math.random().toString(36).slice(2, 8)}`;
  const product = await ok(t.call('cdm', '010203', { code, name: `打印测试${code}`, unitBig: '箱', unitMid: '盒', unitSmall: '个', midQty: 1, bigQty: 1 }, token));
  return ok(t.call('oms', '020203', { supplierId, warehouseId: wh, expectedDate: '2026-12-01', lines: [{ productId: product.id, qty: 1, price: 1 }] }, token));
}

const records = async () => (await t.database.db.selectFrom('printRecord').select(['companyId', 'docType', 'docId', 'printCount']).orderBy('id').execute());

beforeAll(async () => {
  t = await startTestServer();
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
});
afterAll(async () => t?.close());

describe('print marks (023803)', () => {
  it('records documents of the caller company, by number or id, under their numbers', async () => {
    const a = await purchaseOrder(demo);
    const b = await purchaseOrder(demo);
    expect(await ok(t.call('oms', '023803', { docType: 'purchaseOrder', soIdList: [a.docNo, b.id, String(a.id)] }, demo))).toEqual({ count: 2 });
    const mine = (await records()).filter((r) => r.docType === 'purchaseOrder');
    expect(mine.map((r) => [r.docId, Number(r.printCount)]).sort()).toEqual([[a.docNo, 1], [b.docNo, 1]].sort());
  });

  // (Document numbers come from per-company sequences, so another company's id is what identifies its document.)
  it('refuses made-up ids, markup and another company\'s document, naming them, and records nothing', async () => {
    const theirs = await purchaseOrder(demo2);
    const mine = await purchaseOrder(demo);
    const before = await records();
    const cases: Array<[unknown[], string]> = [
      [['NOPE-1', '<script>x</script>'], '采购订单 NOPE-1、<script>x</script> 不存在或不属于本公司，未记录打印'],
      [[mine.id, theirs.id], `采购订单 ${theirs.id} 不存在或不属于本公司，未记录打印`],
      [[999999999], '采购订单 999999999 不存在或不属于本公司，未记录打印'],
    ];
    for (const [soIdList, msg] of cases) {
      const r = await t.call('oms', '023803', { docType: 'purchaseOrder', soIdList }, demo);
      expect(r, JSON.stringify(soIdList)).toMatchObject({ code: 'PRINT_DOC_NOT_FOUND_4192', msg });
    }
    expect(await records()).toEqual(before);
  });

  it('refuses a document type that cannot be printed', async () => {
    const mine = await purchaseOrder(demo);
    const r = await t.call('oms', '023803', { docType: 'account', soIdList: [mine.id] }, demo);
    expect(r.code).toBe('PRINT_DOC_TYPE_4191');
    expect(r.msg).toMatch(/^单据类型“account”不能打印，可选：purchaseOrder、/);
  });
});
