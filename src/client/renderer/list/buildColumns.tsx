// antd column definitions from the schema and the user's column state. Built once per change of
// schema, preferences, sort or session (useMemo in the list), never per row: each cell calls the
// per-column function its type made, so a 10,000-row page costs one cheap call per visible cell.

import { QuestionCircleOutlined } from '@ant-design/icons';
import { Tooltip } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { Link } from 'react-router-dom';
import type { ReactNode } from 'react';
import type { CellRenderer, ColumnTypeDef, Row } from '../columns/types';
import type { ColumnDefault, ColumnState } from '../data/columnConfig';
import { holds, passesStatic, type RenderEnv } from '../env';
import { columnTypes } from '../registries';
import { fillRoute } from '../template';
import type { ColumnSchema, ListPart, OptionItem, SortOrder } from '../types';
import { withDynamicColumns } from './dynamicColumns';
import { editableCell } from './EditableCell';
import { columnKey } from './prepare';

export const DEFAULT_COLUMN_WIDTH = 140;

/**
 * Columns this user may see at all (permission, flag, a `when` on flags/rights); hidden or not. With the
 * list's latest answer, the columns it makes (`dynamicColumns`) join the schema's.
 */
export function availableColumns(part: ListPart, env: RenderEnv, response?: unknown): ColumnSchema[] {
  return withDynamicColumns(part.columns, part, response, env).filter((c) => passesStatic(c, env) && holds(c.when, env, null) && columnTypes.peek(c.type ?? 'text'));
}

export function columnDefaults(columns: readonly ColumnSchema[]): ColumnDefault[] {
  return columns.map((c) => {
    const d: ColumnDefault = { key: columnKey(c) };
    if (c.hidden) d.hidden = true;
    if (c.width !== undefined) d.width = c.width;
    if (c.fixed) d.fixed = c.fixed;
    return d;
  });
}

/** One column's cell function: its type's cell, wrapped in a link when the column names a route. */
export function cellOf(c: ColumnSchema, def: ColumnTypeDef, env: RenderEnv, options: Map<string, OptionItem> | undefined): CellRenderer {
  const inner = c.editable ? editableCell(c, env, def.cell(c, { env, options })) : def.cell(c, { env, options });
  if (c.linkField) {
    const field = c.linkField;
    return (v, row) => {
      const to = row[field];
      return typeof to === 'string' && to.startsWith('/') ? <Link to={to}>{inner(v, row) as ReactNode}</Link> : inner(v, row);
    };
  }
  if (!c.link) return inner;
  const template = c.link;
  return (v, row) => <Link to={fillRoute(template, row)}>{inner(v, row) as ReactNode}</Link>;
}

export interface HeaderCellProps {
  width?: number;
  onResize?: (width: number, done: boolean) => void;
}

export interface BuildArgs {
  available: ColumnSchema[];
  states: ColumnState[];
  env: RenderEnv;
  options: Map<string, Map<string, OptionItem>>;
  sort?: { field: string; order: SortOrder };
  onResize(key: string, width: number, done: boolean): void;
}

export interface Built {
  columns: ColumnType<Row>[];
  /** The schema columns drawn, in order (totals row cells follow this). */
  shown: ColumnSchema[];
  totalWidth: number;
}

export function buildColumns({ available, states, env, options, sort, onResize }: BuildArgs): Built {
  const byKey = new Map(available.map((c) => [columnKey(c), c]));
  const columns: ColumnType<Row>[] = [];
  const shown: ColumnSchema[] = [];
  let totalWidth = 0;
  for (const s of states) {
    if (s.hidden) continue;
    const c = byKey.get(s.key);
    if (!c) continue;
    const def = columnTypes.peek(c.type ?? 'text')!;
    const width = s.width ?? def.width ?? DEFAULT_COLUMN_WIDTH;
    totalWidth += width;
    shown.push(c);
    const render = cellOf(c, def, env, options.get(c.field));
    columns.push({
      key: s.key,
      dataIndex: c.field.split('.'),
      title: c.note ? <ColumnTitleWithNote title={c.title} note={c.note} /> : c.title,
      width,
      fixed: s.fixed,
      align: c.align ?? def.align,
      ellipsis: c.ellipsis ?? true,
      sorter: c.sortable ? true : undefined,
      sortOrder: c.sortable ? (sort?.field === c.field ? sort.order : null) : undefined,
      sortDirections: c.sortable ? ['ascend', 'descend'] : undefined,
      showSorterTooltip: false,
      render: (v: unknown, row: Row) => render(v, row),
      onHeaderCell: () => ({ width, onResize: (w: number, done: boolean) => onResize(s.key, w, done) }) as HeaderCellProps,
    });
  }
  return { columns, shown, totalWidth };
}

/** A column whose meaning needs a word (what it counts, what it leaves out): its note behind a ? in the header. */
export function ColumnTitleWithNote({ title, note }: { title: string; note: string }) {
  return (
    <span className="renderer-column-title">
      {title}
      <Tooltip title={note}>
        <QuestionCircleOutlined className="renderer-column-note" aria-label={note} style={{ marginInlineStart: 4, color: 'rgba(0,0,0,0.45)' }} />
      </Tooltip>
    </span>
  );
}
