// What a column type provides. `cell` is called once per column when the column definitions are
// built (memoised by the list), never per cell: it returns the per-cell function, which must be cheap
// and pure — a page may hold 10,000 rows.

import type { ReactNode } from 'react';
import type { RenderEnv } from '../env';
import type { ColumnSchema, OptionItem } from '../types';

export type Row = Record<string, unknown>;

export interface CellContext {
  env: RenderEnv;
  /** enum columns: their choices by String(value). */
  options?: ReadonlyMap<string, OptionItem>;
}

export type CellRenderer = (value: unknown, row: Row) => ReactNode;

export interface ColumnTypeDef {
  cell(column: ColumnSchema, ctx: CellContext): CellRenderer;
  align?: 'left' | 'center' | 'right';
  /** Width when the schema gives none (the virtual table needs one for every column). */
  width?: number;
  /** Can be summed in a totals row. */
  numeric?: boolean;
  /** Needs its options (static, dict or remote) loaded before drawing. */
  needsOptions?: boolean;
  /** Filter widget used when the column says `"search": true`. */
  searchWidget?: string;
}

/** Empty cell text. */
export const EMPTY = '-';

export function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}
