// The totals row: the declared numeric and money columns summed over the rows on the page, exactly
// (decimal.js through sumExact — money never passes through a binary float). A money column with a
// currency per row shows its total only when every row has the same currency.

import { Table } from 'antd';
import { formatMoney, formatNumber, sumExact, toDecimal } from '../../../core/format';
import type { RenderEnv } from '../env';
import { TOTAL_LABEL } from '../texts';
import type { ColumnSchema } from '../types';
import type { Row } from './useListData';
import { readPath } from '../../../core/conditions';

export interface TotalsRowProps {
  rows: readonly Row[];
  shown: ColumnSchema[];
  fields: string[];
  label?: string;
  /** Cells before the data columns (selection) and after them (row actions). */
  leading: number;
  trailing: number;
  env: RenderEnv;
  /** Keep the row visible under a scrolling body (virtual tables). */
  fixed: boolean;
}

function decimalsOf(c: ColumnSchema, values: unknown[]): number {
  if (c.decimals !== undefined) return c.decimals;
  if ((c.type ?? 'text') === 'money') return 2;
  let max = 0;
  for (const v of values) max = Math.max(max, toDecimal(v as string)?.decimalPlaces() ?? 0);
  return max;
}

export function totalText(c: ColumnSchema, rows: readonly Row[], env: RenderEnv): string {
  const values = rows.map((r) => readPath(r, c.field));
  const decimals = decimalsOf(c, values);
  const sum = sumExact(values as string[], decimals);
  if ((c.type ?? 'text') !== 'money') return formatNumber(sum, decimals);
  let char = c.currency ?? '';
  if (c.currencyField) {
    const ids = new Set(rows.map((r) => String(r[c.currencyField!] ?? '')));
    if (ids.size > 1) return '-';
    const only = [...ids][0];
    char = (only !== undefined && env.currencies[only]?.currencyCharacter) || char;
  }
  return formatMoney(sum, char, decimals);
}

export function TotalsRow({ rows, shown, fields, label, leading, trailing, env, fixed }: TotalsRowProps) {
  const wanted = new Set(fields);
  let index = 0;
  const cells = [];
  for (let i = 0; i < leading; i++) cells.push(<Table.Summary.Cell key={`lead${i}`} index={index++} />);
  shown.forEach((c, i) => {
    const text = wanted.has(c.field) ? totalText(c, rows, env) : i === 0 ? (label ?? TOTAL_LABEL) : '';
    cells.push(
      <Table.Summary.Cell key={c.key ?? c.field} index={index++} align={wanted.has(c.field) ? 'right' : undefined}>
        <span className={wanted.has(c.field) ? 'renderer-total' : undefined} data-field={c.field}>
          {text}
        </span>
      </Table.Summary.Cell>,
    );
  });
  for (let i = 0; i < trailing; i++) cells.push(<Table.Summary.Cell key={`trail${i}`} index={index++} />);
  return (
    <Table.Summary fixed={fixed ? 'bottom' : undefined}>
      <Table.Summary.Row>{cells}</Table.Summary.Row>
    </Table.Summary>
  );
}
