// What opening stock (期初库存单) and stock adjustments (库存调整单) share with the rest of the stock code:
// their kinds (ledger docType → header table, for the movement list), statuses, the adjustment reasons
// and the line limit. The documents themselves are served by the document engine from their definitions
// (src/server/documents/types/stock-documents.ts).
import type { Tenant } from '../../catalog/tenant.ts';
import type { MoveKind } from './ledger.ts';
import { TypedTenant } from '../../db/typed.ts';


export interface DocKind {
  /** docType on the ledger and entity in the audit log */
  type: 'stockInit' | 'stockAdjust';
  title: string;
  header: string;
  line: string;
  /** the line table's SQL name */
  lineTable: string;
  /** document number prefix */
  prefix: string;
  moveKind: MoveKind;
  /** adjustments: quantities may be negative; opening stock: positive only */
  signed: boolean;
  /** adjustments carry a reason from the dictionary stockAdjustReason */
  reason: boolean;
}

export const STOCK_INIT: DocKind = { type: 'stockInit', title: '期初库存单', header: 'stockInit', line: 'stockInitLine', lineTable: 'stock_init_line', prefix: 'QC', moveKind: 'init', signed: false, reason: false };
export const STOCK_ADJUST: DocKind = { type: 'stockAdjust', title: '库存调整单', header: 'stockAdjust', line: 'stockAdjustLine', lineTable: 'stock_adjust_line', prefix: 'TZ', moveKind: 'adjust', signed: true, reason: true };
/** Every document type that writes stock moves, by docType (movements resolve their numbers here). */
export const STOCK_DOC_KINDS: Record<string, DocKind> = { stockInit: STOCK_INIT, stockAdjust: STOCK_ADJUST };

export const DOC_STATUS = { draft: '草稿', posted: '已过账', cancelled: '已作废' } as const;
export type DocStatus = keyof typeof DOC_STATUS;

/** Reasons used when the company has not defined its own dictionary `stockAdjustReason`. */
export const DEFAULT_ADJUST_REASONS = [
  { value: 'gain', label: '盘盈' },
  { value: 'loss', label: '盘亏' },
  { value: 'damage', label: '报损' },
  { value: 'sample', label: '样品领用' },
  { value: 'correction', label: '录入更正' },
  { value: 'other', label: '其他' },
];
export const ADJUST_REASON_DICT = 'stockAdjustReason';

export const MAX_DOC_LINES = 20_000;

export interface LineInput {
  productId: number;
  locationId?: number | null;
  qty?: number | null;
  big?: number | null;
  mid?: number | null;
  small?: number | null;
  remark?: string | null;
}

/** The company's adjustment reasons: its own dictionary when it has one, else the defaults. */
export async function adjustReasons(untypedTenant: Tenant): Promise<Array<{ value: string; label: string }>> {
  const tenant = TypedTenant.of(untypedTenant);
  const rows = await tenant.select('dictItem').select(['value', 'label']).where('dictCode', '=', ADJUST_REASON_DICT).where('enabled', '=', 1)
    .orderBy('sort').orderBy('value').execute();
  return rows.length ? rows.map((r) => ({ value: String(r.value), label: String(r.label) })) : DEFAULT_ADJUST_REASONS;
}

export interface LineSource {
  /** position shown in messages: "第 n 行" (line number or spreadsheet row) */
  label: string;
  field: string;
}

