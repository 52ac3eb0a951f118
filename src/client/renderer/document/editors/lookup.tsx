// lookup: a search box over a remote code (products for an order line, locations for a putaway line).
// Typing asks the code for {keyword, ...body} (debounced); choosing a row stores its value in the
// column's field and copies `fill` fields onto the line, so the rest of the row (name, units, price)
// appears at once. The cell shows `display` filled from the line, so saved lines need no lookup call.
import { Select } from 'antd';
import { memo, useEffect, useRef, useState } from 'react';
import { OK } from '../../../../core/codes';
import { readPath } from '../../../../core/conditions';
import { actionCall } from '../../actions/actionCall';
import { fillBody, fillText } from '../../template';
import type { LineEditorDef, LineEditorProps } from './types';

type Row = Record<string, unknown>;
const DEBOUNCE_MS = 250;

function rowsOf(data: unknown): Row[] {
  if (Array.isArray(data)) return data as Row[];
  const list = (data as { list?: unknown } | null)?.list;
  return Array.isArray(list) ? (list as Row[]) : [];
}

const LookupCell = memo(function LookupCell({ column, line, index, header, onPatch }: LineEditorProps) {
  const spec = column.lookup!;
  const valueKey = spec.value ?? 'id';
  const [rows, setRows] = useState<Row[]>([]);
  const [loading, setLoading] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const latest = useRef('');
  useEffect(() => () => clearTimeout(timer.current), []);

  const search = (keyword: string) => {
    clearTimeout(timer.current);
    latest.current = keyword;
    timer.current = setTimeout(() => {
      setLoading(true);
      const body = { ...(fillBody(spec.body ?? {}, { header, line }) as Row), keyword };
      void actionCall(spec.api, body).then((env) => {
        if (latest.current !== keyword) return;
        setLoading(false);
        if (env.code === OK) setRows(rowsOf(env.data));
      });
    }, DEBOUNCE_MS);
  };

  const current = line[column.field];
  const shown = current === undefined || current === null || current === '' ? undefined : fillText(spec.display, line).trim();
  const labelOf = (r: Row) => String(spec.label ? r[spec.label] : (r.label ?? r.name ?? r[valueKey]));
  const options = rows.map((r) => ({ value: String(r[valueKey]), label: labelOf(r) }));
  return (
    <Select
      size="small"
      style={{ width: '100%' }}
      aria-label={column.title}
      showSearch
      filterOption={false}
      value={current === undefined || current === null || current === '' ? undefined : String(current)}
      labelRender={() => shown ?? String(current ?? '')}
      options={options}
      loading={loading}
      placeholder={spec.placeholder ?? `输入编码或名称查找${column.title}`}
      notFoundContent={loading ? '查找中…' : '没有匹配的记录'}
      onSearch={search}
      onFocus={() => { if (!rows.length) search(''); }}
      onChange={(v: string) => {
        const row = rows.find((r) => String(r[valueKey]) === v);
        if (!row) return;
        const patch: Row = { [column.field]: row[valueKey] };
        for (const [to, from] of Object.entries(spec.fill ?? {})) patch[to] = readPath(row, from);
        onPatch(index, patch);
      }}
    />
  );
});

const lookup: LineEditorDef = {
  component: LookupCell,
  check: (c, path) => (c.lookup?.api && c.lookup.display ? [] : [{ path: `${path}.lookup`, message: 'lookup 编辑器缺少 lookup.api 或 lookup.display' }]),
};
export default lookup;
