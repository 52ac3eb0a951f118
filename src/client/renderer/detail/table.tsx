// table: rows the record itself carries (record[field], an array) as a small table, each cell drawn by
// its column type — for a get answer that holds several short lists at once (a price query's price
// lists, last purchases, competitor prices), where a related list would ask the server once per list.
// No paging or sorting: the server answers the rows to show, in their order.
import { Table } from 'antd';
import { useMemo } from 'react';
import { readPath } from '../../../core/conditions';
import type { Row } from '../columns/types';
import { passes, useRenderEnv } from '../env';
import { cellOf } from '../list/buildColumns';
import { columnTypes } from '../registries';
import type { TableSection } from '../types';
import { useItemOptions } from './descriptions';
import type { SectionDef, SectionProps } from './types';

function TableView({ section, record }: SectionProps) {
  const env = useRenderEnv();
  const s = section as TableSection;
  const options = useItemOptions(s.columns);
  const value = readPath(record, s.field);
  const rows = useMemo(() => (Array.isArray(value) ? (value as Row[]) : []), [value]);
  const columns = useMemo(() => {
    if (!options) return [];
    return s.columns
      .filter((c) => passes(c, env, record) && columnTypes.peek(c.type ?? 'text'))
      .map((c) => {
        const def = columnTypes.peek(c.type ?? 'text')!;
        const cell = cellOf(c, def, env, options.get(c.field));
        return {
          key: c.field,
          title: c.title,
          width: c.width,
          align: c.align ?? def.align,
          ellipsis: c.ellipsis,
          render: (_: unknown, row: Row) => cell(readPath(row, c.field), row),
        };
      });
  }, [s.columns, env, record, options]);
  const key = s.rowKey ?? 'id';
  return (
    <Table<Row>
      className="renderer-record-table"
      size="small"
      bordered
      title={s.title ? () => <strong>{s.title}</strong> : undefined}
      columns={columns}
      dataSource={rows}
      rowKey={(row) => String(row[key] ?? rows.indexOf(row))}
      pagination={false}
      loading={!options}
      locale={{ emptyText: s.empty ?? '暂无数据' }}
      scroll={{ x: 'max-content' }}
    />
  );
}

const table: SectionDef = { component: TableView };
export default table;
