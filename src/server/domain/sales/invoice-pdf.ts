// The printed sales invoice as a PDF (oms 022411): the same figures as invoiceLook (invoicePrintData), on
// A4, drawn with pdfkit in a CJK font of the machine (fonts-noto-cjk; INVOICE_PDF_FONT names another
// .ttf/.otf/.ttc, INVOICE_PDF_FONT_NAME its face inside a collection). The font is subset: a page weighs tens of kB.
import fs from 'node:fs';
import PDFDocument from 'pdfkit';
import type { CallContext } from '../../catalog/context.ts';
import { bizError } from '../../http/errors.ts';
import { FileResponse } from '../../http/file-response.ts';
import { invoicePrintData } from './invoice.ts';

const FONT = process.env.INVOICE_PDF_FONT ?? '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
const FONT_NAME = process.env.INVOICE_PDF_FONT_NAME ?? (FONT.endsWith('.ttc') ? 'NotoSansCJKsc-Regular' : undefined);

type Print = Awaited<ReturnType<typeof invoicePrintData>>;

const money = (s: string) => Number(s).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The invoice's PDF bytes. */
export async function invoicePdfBytes(data: Print): Promise<Buffer> {
  if (!fs.existsSync(FONT)) throw bizError('PRINT_FONT_MISSING_4193', { path: FONT });
  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: `${data.title} ${data.docNo}`, Author: data.seller.name ?? '' } });
  doc.registerFont('cjk', FONT, FONT_NAME);
  doc.font('cjk');
  const chunks: Buffer[] = [];
  doc.on('data', (b: Buffer) => chunks.push(b));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = 40;
  const width = 515;
  doc.fontSize(16).text(data.seller.name ?? '', left, 40, { width, align: 'center' });
  doc.fontSize(14).text(`销售发票${data.status === 'cancelled' ? '（已作废）' : ''}`, { width, align: 'center' });
  doc.moveDown(0.5).fontSize(9);
  const pair = (a: string, b: string) => {
    const y = doc.y;
    doc.text(a, left, y, { width: width / 2 - 10 });
    const h = doc.y;
    doc.text(b, left + width / 2, y, { width: width / 2 });
    doc.y = Math.max(h, doc.y);
  };
  pair(`单号：${data.docNo}`, `发票号码：${data.invoiceNo ?? '-'}`);
  pair(`开票日期：${data.invoiceDate ?? '-'}`, `收款到期日：${data.dueDate ?? '-'}　币种：${data.currencyCode}`);
  doc.moveDown(0.5);
  pair(`销售方：${data.seller.name ?? '-'}`, `购买方：${data.buyer.name}`);
  pair(`纳税人识别号：${data.seller.taxNo ?? '-'}`, `纳税人识别号：${data.buyer.taxNo ?? '-'}`);
  pair(`地址、电话：${[data.seller.address, data.seller.phone].filter(Boolean).join(' ') || '-'}`, `地址、电话：${[data.buyer.address, data.buyer.phone].filter(Boolean).join(' ') || '-'}`);
  pair(`开户行及账号：${data.seller.bank ?? '-'}`, '');
  doc.moveDown(0.5);

  // the lines: code, name, qty, price, net, rate, tax, total
  const cols = [
    { title: '行', w: 24, align: 'right' as const },
    { title: '商品编码', w: 70, align: 'left' as const },
    { title: '商品名称', w: 131, align: 'left' as const },
    { title: '数量', w: 45, align: 'right' as const },
    { title: '含税单价', w: 55, align: 'right' as const },
    { title: '金额', w: 55, align: 'right' as const },
    { title: '税率', w: 35, align: 'right' as const },
    { title: '税额', w: 45, align: 'right' as const },
    { title: '价税合计', w: 55, align: 'right' as const },
  ];
  const row = (cells: string[], bold = false) => {
    if (doc.y > 780) doc.addPage();
    const y = doc.y;
    let x = left;
    let bottom = y;
    cells.forEach((c, i) => {
      doc.text(c, x + 2, y + 3, { width: cols[i]!.w - 4, align: cols[i]!.align });
      bottom = Math.max(bottom, doc.y);
      x += cols[i]!.w;
    });
    doc.moveTo(left, bottom + 2).lineTo(left + width, bottom + 2).lineWidth(bold ? 0.8 : 0.3).stroke();
    doc.y = bottom + 3;
  };
  doc.moveTo(left, doc.y).lineTo(left + width, doc.y).lineWidth(0.8).stroke();
  row(cols.map((c) => c.title), true);
  for (const l of data.lines) {
    row([String(l.lineNo), l.productCode, [l.productName, l.specification].filter(Boolean).join(' '), `${l.qty}${l.unit ?? ''}`, l.price, money(l.netAmount), l.taxRate, money(l.taxAmount), money(l.amount)]);
  }
  row(['', '合计', '', String(data.totalQty), '', money(data.netAmount), '', money(data.taxAmount), money(data.totalAmount)], true);
  doc.moveDown(0.5);
  doc.x = left;
  for (const r of data.perRate) doc.text(`税率 ${r.taxRate}：金额 ${money(r.net)}，税额 ${money(r.tax)}，价税合计 ${money(r.amount)}`, left, doc.y, { width });
  doc.moveDown(0.5).fontSize(11);
  doc.text(`价税合计（大写）：${data.totalCapital}　　（小写）${data.currencyCode} ${money(data.totalAmount)}`, left, doc.y, { width });
  if (data.remark) doc.fontSize(9).moveDown(0.5).text(`备注：${data.remark}`, left, doc.y, { width });
  doc.end();
  return done;
}

/** The download: invoice number in the file name. */
export async function invoicePdf(ctx: CallContext, id: number): Promise<FileResponse> {
  const data = await invoicePrintData(ctx, id);
  return new FileResponse(`销售发票-${data.docNo}.pdf`, 'application/pdf', await invoicePdfBytes(data));
}
