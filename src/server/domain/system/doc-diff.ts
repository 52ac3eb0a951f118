// 单据对比 (cdm 019813–019814): two documents of one type, by number, compared field by field (header
// fields in the definition's order, references by their label, enums by their text) and line by line
// (matched by line number; a line only one side has shows as 新增 / 缺少). Served from the document
// engine's own `get`, so every engine document type can be compared.
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { DocumentType } from '../../documents/engine.ts';
import { bizError, validationError } from '../../http/errors.ts';

type Row = Record<string, unknown>;

export function docTypeOptions(ctx: CallContext) {
  return [...ctx.documents.values()].map((t) => ({ value: t.def.type, label: t.def.title })).sort((a, b) => a.label.localeCompare(b.label, 'zh'));
}

export const DIFF_INPUT: InputSchema = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, default: 1 },
    pageSize: { type: 'integer', minimum: 1, maximum: 5000, default: 500 },
    type: { type: ['string', 'null'], maxLength: 50, title: '单据类型' },
    left: { type: ['string', 'null'], maxLength: 50, title: '单号一' },
    right: { type: ['string', 'null'], maxLength: 50, title: '单号二' },
    onlyDifferent: { type: ['boolean', 'null'], title: '只看不同' },
  },
};

function shown(view: Row, name: string, type: string): string {
  const v = view[name];
  if (type === 'enum' && view[`${name}Text`] != null) return String(view[`${name}Text`]);
  if (type === 'reference' && name.endsWith('Id')) {
    const base = name.slice(0, -2);
    const label = [view[`${base}Code`], view[`${base}Name`]].filter((x) => x != null && x !== '').join(' ');
    if (label) return label;
  }
  if (v === null || v === undefined || v === '') return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

async function byNumber(ctx: CallContext, t: DocumentType, docNo: string, field: string): Promise<Row> {
  const r = (await ctx.tenant.select(t.def.table).select('id').where('docNo', '=', docNo.trim()).executeTakeFirst()) as Row | undefined;
  if (!r) throw validationError([{ field, message: `${t.def.title} ${docNo.trim()} 不存在` }]);
  return (await t.get(ctx, Number(r.id))) as Row;
}

export async function diffDocuments(ctx: CallContext, input: { page: number; pageSize: number; type?: string | null; left?: string | null; right?: string | null; onlyDifferent?: boolean | null }) {
  if (!input.type || !input.left?.trim() || !input.right?.trim()) return { list: [], total: 0, page: 1, pageSize: input.pageSize };
  const t = ctx.documents.get(input.type);
  if (!t) throw bizError('COMMON_NOT_FOUND_4004', { entity: `单据类型 ${input.type.slice(0, 30)}` });
  const a = await byNumber(ctx, t, input.left, 'left');
  const b = await byNumber(ctx, t, input.right, 'right');
  const out: Row[] = [];
  const push = (place: string, title: string, l: string, r: string) => out.push({ key: `${out.length}`, place, field: title, left: l, right: r, same: l === r, diff: l === r ? '' : '不同' });
  push('表头', '状态', String(a.statusText), String(b.statusText));
  for (const [name, f] of Object.entries(t.def.header)) push('表头', f.title ?? name, shown(a, name, f.type), shown(b, name, f.type));
  const la = new Map(((a.lines as Row[]) ?? []).map((l) => [Number(l.lineNo), l]));
  const lb = new Map(((b.lines as Row[]) ?? []).map((l) => [Number(l.lineNo), l]));
  const nos = [...new Set([...la.keys(), ...lb.keys()])].sort((x, y) => x - y);
  for (const no of nos) {
    const x = la.get(no), y = lb.get(no);
    for (const [name, f] of Object.entries(t.def.lines.fields)) {
      push(`第 ${no} 行`, f.title ?? name, x ? shown(x, name, f.type) : '（无此行）', y ? shown(y, name, f.type) : '（无此行）');
    }
  }
  for (const r of out) if (String(r.left) === '（无此行）' || String(r.right) === '（无此行）') r.diff = String(r.left) === '（无此行）' ? '新增' : '缺少';
  const list = input.onlyDifferent ? out.filter((r) => !r.same) : out;
  return {
    list: list.slice((input.page - 1) * input.pageSize, input.page * input.pageSize), total: list.length, page: input.page, pageSize: input.pageSize,
    different: out.filter((r) => !r.same).length, leftDocNo: a.docNo, rightDocNo: b.docNo,
  };
}
