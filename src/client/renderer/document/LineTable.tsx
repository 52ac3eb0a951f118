// The line table of a document: rows are plain data in React state (no formily field per cell — see
// DESIGN §6, formily ArrayTable slows down with many rows); editable cells are light inputs with the
// column's input filter; computed cells (qty × price) and the totals row are exact. Pages above 100
// lines draw virtual rows.
//
// Skeleton for issue 4: input/number/money editors, add and remove lines. Product pickers, unit
// conversion (big/mid/small) and keyboard navigation come with the document flows.

import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Table } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { memo, useCallback, useMemo } from 'react';
import { FilteredInput } from '../../widgets/FilteredInput';
import type { RenderEnv } from '../env';
import { TotalsRow } from '../list/TotalsRow';
import { columnTypes } from '../registries';
import type { LineColumn, TotalsSchema } from '../types';
import { lineValue, type Line } from './lines';

const EDITOR_FILTER: Record<string, (c: LineColumn) => string | undefined> = {
  input: () => undefined,
  number: (c) => (c.decimals ? `decimals:${c.decimals}` : 'int'),
  money: (c) => `decimals:${c.decimals ?? 2}`,
};

const Cell = memo(function Cell({ index, field, value, filter, onEdit }: { index: number; field: string; value: unknown; filter?: string; onEdit(index: number, field: string, value: string): void }) {
  return <FilteredInput size="small" filter={filter} value={value === undefined || value === null ? '' : String(value)} onChange={(e) => onEdit(index, field, e.target.value)} />;
});

export interface LineTableProps {
  columns: LineColumn[];
  lines: Line[];
  rowKey: string;
  totals?: TotalsSchema;
  env: RenderEnv;
  readOnly: boolean;
  onChange(lines: Line[]): void;
}

export function LineTable({ columns, lines, rowKey, totals, env, readOnly, onChange }: LineTableProps) {
  const onEdit = useCallback(
    (index: number, field: string, value: string) => {
      const next = lines.slice();
      next[index] = { ...next[index], [field]: value };
      onChange(next);
    },
    [lines, onChange],
  );
  const tableColumns = useMemo(() => {
    const out: ColumnType<Line>[] = columns.map((c) => {
      const def = columnTypes.peek(c.type ?? 'text');
      const cell = def?.cell(c, { env });
      const editable = !readOnly && !!c.editor && !c.product;
      return {
        key: c.field,
        title: c.title,
        width: c.width ?? def?.width ?? 120,
        align: editable ? undefined : (c.align ?? def?.align),
        render: (_: unknown, line: Line, index: number) =>
          editable ? (
            <Cell index={index} field={c.field} value={line[c.field]} filter={EDITOR_FILTER[c.editor!]?.(c)} onEdit={onEdit} />
          ) : cell ? (
            cell(lineValue(line, c), line)
          ) : (
            String(lineValue(line, c) ?? '')
          ),
      };
    });
    if (!readOnly) {
      out.push({
        key: '__remove',
        title: '',
        width: 48,
        render: (_: unknown, _line: Line, index: number) => (
          <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label="删除行" onClick={() => onChange(lines.filter((_l, i) => i !== index))} />
        ),
      });
    }
    return out;
  }, [columns, env, readOnly, onEdit, onChange, lines]);

  const shown = useMemo(() => columns.map((c) => ({ ...c, field: c.field })), [columns]);
  const computedLines = useMemo(() => lines.map((l) => Object.fromEntries(columns.map((c) => [c.field, lineValue(l, c)])) as Line), [lines, columns]);
  const virtual = lines.length > 100;
  return (
    <>
      <Table<Line>
        size="small"
        rowKey={(l) => String(l[rowKey] ?? lines.indexOf(l))}
        columns={tableColumns}
        dataSource={lines}
        pagination={false}
        virtual={virtual}
        scroll={{ x: tableColumns.reduce((s, c) => s + Number(c.width ?? 120), 0), y: virtual ? 480 : undefined }}
        summary={totals?.fields.length ? () => <TotalsRow rows={computedLines} shown={shown} fields={totals.fields} label={totals.label ?? '合计'} leading={0} trailing={readOnly ? 0 : 1} env={env} fixed={virtual} /> : undefined}
      />
      {!readOnly && (
        <Button type="dashed" block icon={<PlusOutlined />} style={{ marginTop: 8 }} onClick={() => onChange([...lines, {}])}>
          添加行
        </Button>
      )}
    </>
  );
}
