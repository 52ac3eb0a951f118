// Uploaded spreadsheets (issue 19 items 2 and 15). A 1.5 MB .xlsx that inflated to 380 MB stalled every
// request of every company for ~45 s: uploads are now read in a worker thread, within limits (inflated
// size checked before and while inflating, rows, columns), refused beyond with a clear message. The
// SheetJS build reading them is one without the advisories of xlsx 0.18.5 (prototype pollution from a
// crafted file, CVE-2023-30533; ReDoS, CVE-2024-22363) — each is tried with a crafted file.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPREADSHEET_LIMITS } from '../../src/server/files/xlsx.ts';
import { multipart } from '../fixtures/spreadsheets.ts';
import { protoCommentXlsx, redosHtml, sheetXml, workbookParts, zip } from '../fixtures/xlsx-bombs.ts';
import { startTestServer, type TestServer } from '../integration/helpers.ts';

const require = createRequire(import.meta.url);
const XLSX = require('@e965/xlsx') as { version: string; read(data: Buffer, opts: object): unknown };

const PRODUCT_IMPORT = '010206';
const MB = 1024 * 1024;

let t: TestServer;
let admin: string;
let other: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  other = await t.login('demo2');
});

afterAll(async () => {
  await t?.close();
});

const upload = (body: Buffer, fileName = '商品导入.xlsx', token = admin) => {
  const { payload, headers } = multipart(fileName, body);
  return t.call('cdm', PRODUCT_IMPORT, undefined, token, { payload, headers });
};

async function productCount(): Promise<number> {
  const r = await t.database.db.selectFrom('product').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  return Number(r?.n ?? 0);
}

const TOO_BIG = `导入文件过大：解压后超过 ${SPREADSHEET_LIMITS.maxInflated / MB} MB，请分批导入`;

describe('bombs and oversized sheets', () => {
  it('a zip declaring more than the inflated limit: refused before inflating, nothing written', async () => {
    // A real 110 MB sheet that deflates to a few hundred kB, its sizes declared truly.
    const sheet = sheetXml([['商品编码', '商品名称']], { cells: Array(20).fill('x'.repeat(60)), times: 57_000 });
    expect(sheet.length).toBeGreaterThan(SPREADSHEET_LIMITS.maxInflated);
    const file = zip(workbookParts(sheet));
    expect(file.length).toBeLessThan(MB);
    const before = await productCount();
    const started = Date.now();
    const r = await upload(file);
    expect(r).toMatchObject({ code: 'COMMON_IMPORT_TOO_BIG_4018', msg: TOO_BIG });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await productCount()).toBe(before);
  });

  it('a zip whose directory understates its sizes: stopped while inflating, at the limit', async () => {
    const sheet = sheetXml([['商品编码', '商品名称']], { cells: Array(20).fill('y'.repeat(60)), times: 57_000 });
    const file = zip(workbookParts(sheet), () => 1000);
    const r = await upload(file);
    expect(r).toMatchObject({ code: 'COMMON_IMPORT_TOO_BIG_4018', msg: TOO_BIG });
  });

  it('more rows than an import takes: refused naming the limit', async () => {
    const file = zip(workbookParts(sheetXml([['商品编码', '商品名称']], { cells: ['P', '螺丝'], times: 60_000 })));
    const r = await upload(file);
    expect(r).toMatchObject({ code: 'COMMON_IMPORT_TOO_BIG_4018', msg: '导入文件过大：超过 50000 行，请分批导入' });
  });

  it('more columns than an import takes: refused naming the first column past it', async () => {
    const file = zip(workbookParts(sheetXml([['商品编码', '商品名称'], Array.from({ length: 250 }, (_, i) => `v${i}`)])));
    const r = await upload(file);
    expect(r).toMatchObject({ code: 'COMMON_IMPORT_TOO_BIG_4018', msg: '导入文件过大：超过 200 列（GS 列有内容），请分批导入' });
  });

  it('while a big sheet is read, another company is answered at once', async () => {
    // ~86 MB of XML in a ~0.4 MB file: 55,000 rows of 16 cells; the reader parses 50,100 of them
    // (seconds of CPU) and refuses the rest.
    const sheet = sheetXml([['商品编码', '商品名称']], { cells: Array(16).fill('z'.repeat(60)), times: 55_000 });
    expect(sheet.length).toBeGreaterThan(80 * MB);
    expect(sheet.length).toBeLessThan(SPREADSHEET_LIMITS.maxInflated);
    const file = zip(workbookParts(sheet));
    let done = false;
    const importing = upload(file).finally(() => { done = true; });
    const latencies: number[] = [];
    const started = Date.now();
    while (!done) {
      const t0 = performance.now();
      const r = await t.call('cdm', '011001', { page: 1, pageSize: 5 }, other);
      latencies.push(performance.now() - t0);
      expect(r.code).toBe('200');
    }
    const took = Date.now() - started;
    expect(await importing).toMatchObject({ code: 'COMMON_IMPORT_TOO_BIG_4018', msg: '导入文件过大：超过 50000 行，请分批导入' });
    // The read took seconds; every other call during it was answered well under a second.
    expect(took).toBeGreaterThan(500);
    expect(latencies.length).toBeGreaterThan(5);
    const worst = Math.max(...latencies);
    console.log(`[spreadsheet-uploads] big sheet read for ${took} ms; ${latencies.length} other calls meanwhile, worst ${worst.toFixed(0)} ms`);
    expect(worst).toBeLessThan(1000);
  }, 120_000);
});

describe('several big reads at once', () => {
  it("three big reads at once (the issue's 165 s stall): all refused, other calls answered meanwhile", async () => {
    const file = zip(workbookParts(sheetXml([['商品编码', '商品名称']], { cells: Array(16).fill('w'.repeat(60)), times: 55_000 })));
    let pending = 3;
    const imports = [0, 1, 2].map(() => upload(file).finally(() => { pending--; }));
    const latencies: number[] = [];
    while (pending > 0) {
      const t0 = performance.now();
      expect((await t.call('cdm', '011001', { page: 1, pageSize: 5 }, other)).code).toBe('200');
      latencies.push(performance.now() - t0);
    }
    for (const r of await Promise.all(imports)) expect(r).toMatchObject({ code: 'COMMON_IMPORT_TOO_BIG_4018', msg: '导入文件过大：超过 50000 行，请分批导入' });
    const worst = Math.max(...latencies);
    console.log(`[spreadsheet-uploads] three big reads: ${latencies.length} other calls meanwhile, worst ${worst.toFixed(0)} ms`);
    expect(worst).toBeLessThan(1000);
  }, 180_000);
});

describe('crafted files of the SheetJS advisories', () => {
  it(`CVE-2023-30533 (prototype pollution): SheetJS ${XLSX.version} reading a comment on cell "__proto__" leaves Object.prototype alone`, async () => {
    const file = protoCommentXlsx();
    XLSX.read(file, { type: 'buffer' });
    expect(({} as Record<string, unknown>).c).toBeUndefined();
    // Through the server: read (in its worker), imported as a plain product list.
    const r = await upload(file);
    expect(r.code).toBe('200');
    expect(({} as Record<string, unknown>).c).toBeUndefined();
  });

  it('CVE-2024-22363 (ReDoS): a cell ending in 40,000 spaces is read in milliseconds, and such a file is no upload', async () => {
    const html = redosHtml();
    const t0 = performance.now();
    XLSX.read(html, { type: 'buffer' });
    expect(performance.now() - t0).toBeLessThan(500); // xlsx 0.18.5: ~3 s
    // The upload path never hands SheetJS anything but a zip (.xlsx) or an OLE file (.xls).
    for (const name of ['表.xls', '表.xlsx', '表.html']) {
      expect(await upload(html, name)).toMatchObject({ code: 'COMMON_IMPORT_FILE_4013', msg: '附件格式错误，请重新上传！' });
    }
  });
});
