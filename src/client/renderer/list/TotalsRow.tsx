// The totals rows under a table. 本页合计: the declared numeric and money columns summed over the rows on
// the page, exactly (decimal.js through sumExact — money never passes through a binary float); a money
// column with a currency per row shows its total only when every row has the same currency.
// 全部合计 (lists declaring totals.all): the totals the server computed over every row the conditions
// keep, shown as they came (exact decimal text); a money column with a currency per row shows its total
// only while the conditions hold that column's currency to one value.

import { Table } from 'antd';
import { formatMoney, formatNumber, sumExact, toDecimal } from '../../../core/format';
import type { RenderEnv } from '../env';
import { TOTAL_LABEL } from '../texts';
import type { ColumnSchema } from '../types';
import type { Row } from './useListData';
import { readPath } from '../../../core/conditions';

export const ALL_TOTAL_LABEL = '全部合计';

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
  /** false: no 本页合计 row (default true). */
  page?: boolean;
  /** The server's totals over all rows: a 全部合计 row (undefined: none; null: not answered yet). */
  all?: Row | null;
  allLabel?: string;
  /** The list's current conditions (filters), for the currency of a 全部合计 money column. */
  conditions?: Row;
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

/** A server total as shown: '-' when it is missing, or a money total over several currencies. */
export function allTotalText(c: ColumnSchema, totals: Row | null, env: RenderEnv, conditions: Row = {}): string {
  const v = totals ? readPath(totals, c.field) : undefined;
  if (v === undefined || v === null || toDecimal(v as string) === undefined) return totals ? '-' : '';
  const decimals = decimalsOf(c, [v]);
  if ((c.type ?? 'text') !== 'money') return formatNumber(v as string, decimals);
  let char = c.currency ?? '';
  if (c.currencyField) {
    const held = conditions[c.currencyField];
    const one = Array.isArray(held) ? (held.length === 1 ? held[0] : undefined) : held;
    if (one === undefined || one === null || one === '') return '-';
    char = env.currencies[String(one)]?.currencyCharacter || char;
  }
  return formatMoney(v as string, char, decimals);
}

function cellsOf(props: TotalsRowProps, label: string, text: (c: ColumnSchema) => string, className: string) {
  const { shown, fields, leading, trailing } = props;
  const wanted = new Set(fields);
  let index = 0;
  const cells = [];
  for (let i = 0; i < leading; i++) cells.push(<Table.Summary.Cell key={`lead${i}`} index={index++} />);
  shown.forEach((c, i) => {
    const summed = wanted.has(c.field);
    cells.push(
      <Table.Summary.Cell key={c.key ?? c.field} index={index++} align={summed ? 'right' : undefined}>
        <span className={summed ? className : undefined} data-field={c.field}>
          {summed ? text(c) : i === 0 ? label : ''}
        </span>
      </Table.Summary.Cell>,
    );
  });
  for (let i = 0; i < trailing; i++) cells.push(<Table.Summary.Cell key={`trail${i}`} index={index++} />);
  return cells;
}

export function TotalsRow(props: TotalsRowProps) {
  const { rows, label, env, fixed, page = true, all, allLabel, conditions } = props;
  return (
    <Table.Summary fixed={fixed ? 'bottom' : undefined}>
      {page && <Table.Summary.Row>{cellsOf(props, label ?? TOTAL_LABEL, (c) => totalText(c, rows, env), 'renderer-total')}</Table.Summary.Row>}
      {all !== undefined && (
        <Table.Summary.Row>{cellsOf(props, allLabel ?? ALL_TOTAL_LABEL, (c) => allTotalText(c, all, env, conditions), 'renderer-total-all')}</Table.Summary.Row>
      )}
    </Table.Summary>
  );
}
