// 出库任务打印 (oms 021314, the free code of the 0213xx outbound task family): the task as a picker's sheet —
// its plan, order and client, and per line the product, the quantity in big/mid/small, what is picked and
// delivered, with lines for the picker's and checker's signatures. Read from the engine's own `get` of the
// task (documents/types/outbound-task.ts), so it shows exactly what the task page shows.
import { formatTime } from '../../../core/format.ts';
import type { UnitSplit } from '../../../core/stock-units.ts';
import type { CallContext } from '../../catalog/context.ts';
import type { DocumentType } from '../../documents/index.ts';
import { bizError } from '../../http/errors.ts';
import { TypedTenant } from '../../db/typed.ts';
import { escapeHtml } from '../email.ts';
import { tz, type Row } from '../procurement/common.ts';

const TITLE = '出库任务';

export async function printOutboundTask(ctx: CallContext, types: Map<string, DocumentType>, input: { id?: number | null; docNo?: string | null }) {
  let id = input.id ?? undefined;
  if (!id && input.docNo?.trim()) {
    const r = await TypedTenant.of(ctx.tenant).select('outboundTask').select('id').where('docNo', '=', input.docNo.trim()).executeTakeFirst();
    id = r ? Number(r.id) : undefined;
  }
  if (!id) throw bizError('COMMON_NOT_FOUND_4004', { entity: TITLE });
  // the engine's answer (DocumentView): its fields come from the document definition at run time
  const t = await types.get('outboundTask')!.get(ctx, id);
  const e = (v: unknown) => escapeHtml(v === null || v === undefined ? '' : String(v));
  const at = (v: unknown) => (v ? formatTime(String(v), tz(ctx)) : '');
  const cell = 'border:1px solid #999;padding:4px 6px';
  const head = [['单号', t.docNo], ['状态', t.statusText], ['仓库', t.warehouseName], ['发货计划', t.planDocNo ?? ''], ['销售订单', t.orderDocNo ?? ''],
    ['拣货员', t.assigneeName ?? ''], ['承运商', t.carrier ?? ''], ['制单', `${t.createdByName ?? ''} ${at(t.createdAt)}`], ['备注', t.remark ?? '']];
  const body = `<h2 style="text-align:center;margin:4px 0 12px">${e(TITLE)}</h2>`
    + `<table style="width:100%;border-collapse:collapse;margin-bottom:10px">${head.map(([k, v], i) => `${i % 3 === 0 ? '<tr>' : ''}<td style="padding:2px 6px;color:#555;white-space:nowrap">${e(k)}</td><td style="padding:2px 6px">${e(v)}</td>${i % 3 === 2 ? '</tr>' : ''}`).join('')}</table>`
    + `<table style="width:100%;border-collapse:collapse"><thead><tr>${['行', '商品编码', '商品名称', '规格', '计划数量', '大/中/小', '已拣', '已发'].map((h) => `<th style="${cell};background:#f5f5f5">${h}</th>`).join('')}</tr></thead><tbody>`
    + t.lines.map((l) => `<tr><td style="${cell}">${e(l.lineNo)}</td><td style="${cell}">${e(l.productCode)}</td><td style="${cell}">${e(l.productName)}</td><td style="${cell}">${e(l.specification ?? '')}</td>`
      + `<td style="${cell};text-align:right">${e(l.qty)}</td><td style="${cell}">${e((l.units as UnitSplit | undefined)?.text ?? '')}</td><td style="${cell};text-align:right">${e(l.pickedQty)}</td><td style="${cell};text-align:right">${e(l.deliveredQty)}</td></tr>`).join('')
    + `<tr><td style="${cell}" colspan="4">合计（${e(t.lineCount)} 行）</td><td style="${cell};text-align:right">${e(t.totalQty)}</td><td style="${cell}"></td><td style="${cell};text-align:right">${e(t.pickedQty)}</td><td style="${cell};text-align:right">${e(t.deliveredQty)}</td></tr>`
    + '</tbody></table>'
    + '<p style="margin-top:28px;display:flex;justify-content:space-between"><span>拣货：__________</span><span>复核：__________</span><span>日期：__________</span></p>';
  return { subject: `${TITLE} ${String(t.docNo)}（${String(t.statusText)}）`, body, format: 'html' };
}
