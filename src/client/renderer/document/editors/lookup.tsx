// lookup: a search box over a remote code (products for an order line, locations for a putaway line).
// Typing asks the code for {keyword, ...body} (debounced); choosing a row stores its value in the
// column's field and copies `fill` fields onto the line, so the rest of the row (name, units, price)
// appears at once. The cell shows `display` filled from the line, so saved lines need no lookup call.
//
// Enter resolves what was typed, not what an older search left highlighted (a barcode scanner types the
// code and presses Enter within milliseconds): the code is asked at once and the row whose code or
// barcode matches exactly is taken; with no exact match the dropdown stays open and nothing is chosen.
// Tab resolves typed text the same way. Enter after moving through the options with the arrow keys
// takes the highlighted option, as usual.
// Enter with nothing typed on a line that has a value moves on to the next cell.
import { Select } from 'antd';
import { memo, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { OK } from '../../../../core/codes';
import { readPath } from '../../../../core/conditions';
import { actionCall } from '../../actions/actionCall';
import { exactMatch } from '../../data/exactMatch';
import { fillBody, fillText } from '../../template';
import type { LineEditorDef, LineEditorProps } from './types';

type Row = Record<string, unknown>;
const DEBOUNCE_MS = 250;

function rowsOf(data: unknown): Row[] {
  if (Array.isArray(data)) return data as Row[];
  const list = (data as { list?: unknown } | null)?.list;
  return Array.isArray(list) ? (list as Row[]) : [];
}

const empty = (v: unknown) => v === undefined || v === null || v === '';

const LookupCell = memo(function LookupCell({ column, line, index, header, onPatch, onEnterDone }: LineEditorProps) {
  const spec = column.lookup!;
  const valueKey = spec.value ?? 'id';
  const [rows, setRows] = useState<Row[]>([]);
  const [loading, setLoading] = useState(false);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [missing, setMissing] = useState<string | undefined>();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  // The text typed last and the turn of the last search asked: an answer to an older one is dropped.
  const typed = useRef('');
  const turn = useRef(0);
  // Arrow keys moved the highlight since the last keystroke: Enter then takes the highlighted option.
  const navigated = useRef(false);
  useEffect(() => () => clearTimeout(timer.current), []);

  const ask = (keyword: string): Promise<Row[] | null> => {
    const mine = ++turn.current;
    setLoading(true);
    const body = { ...(fillBody(spec.body ?? {}, { header, line }) as Row), keyword };
    return actionCall(spec.api, body).then((env) => {
      if (mine !== turn.current) return null;
      setLoading(false);
      const got = env.code === OK ? rowsOf(env.data) : [];
      setRows(got);
      return got;
    });
  };

  const search = (keyword: string) => {
    clearTimeout(timer.current);
    typed.current = keyword;
    navigated.current = false;
    setText(keyword);
    setMissing(undefined);
    timer.current = setTimeout(() => void ask(keyword), DEBOUNCE_MS);
  };

  const choose = (row: Row) => {
    const patch: Row = { [column.field]: row[valueKey] };
    for (const [to, from] of Object.entries(spec.fill ?? {})) patch[to] = readPath(row, from);
    onPatch(index, patch);
    typed.current = '';
    setText('');
    setMissing(undefined);
    setOpen(false);
  };

  const resolve = async (keyword: string, from: HTMLElement) => {
    clearTimeout(timer.current);
    const got = await ask(keyword);
    // Typed on meanwhile: that text counts now. Text cleared without typing (the cell lost focus, the
    // list closed) does not undo the Enter: what was scanned is still resolved or said to be missing.
    if (got === null || (typed.current !== keyword && typed.current !== '')) return;
    const row = exactMatch(got, keyword);
    if (row) {
      choose(row);
      onEnterDone?.(from);
    } else {
      setMissing(keyword);
      setOpen(true);
    }
  };

  const onKeyDownCapture = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') navigated.current = true;
    const enter = e.key === 'Enter';
    if ((!enter && e.key !== 'Tab') || e.nativeEvent.isComposing || e.ctrlKey || e.altKey || e.metaKey) return;
    if (navigated.current && open) return; // the highlighted option, chosen by the clerk
    // Keep the select from taking its highlighted option (Enter and Tab both would) and, for Enter,
    // the line table from seeing it: this cell decides.
    e.stopPropagation();
    const keyword = typed.current.trim();
    const from = e.target as HTMLElement;
    if (!enter) {
      // Tab leaves as usual; typed text is resolved like Enter, but focus is not held back for it.
      if (keyword && !e.shiftKey) {
        e.preventDefault();
        void resolve(keyword, from);
      }
      return;
    }
    e.preventDefault();
    if (keyword) void resolve(keyword, from);
    else if (!empty(line[column.field])) {
      setOpen(false);
      onEnterDone?.(from);
    } else setOpen(true);
  };

  const current = line[column.field];
  const shown = empty(current) ? undefined : fillText(spec.display, line).trim();
  const labelOf = (r: Row) => String(spec.label ? r[spec.label] : (r.label ?? r.name ?? r[valueKey]));
  const options = rows.map((r) => ({ value: String(r[valueKey]), label: labelOf(r) }));
  return (
    <div onKeyDownCapture={onKeyDownCapture}>
      <Select
        size="small"
        style={{ width: '100%' }}
        aria-label={column.title}
        showSearch
        filterOption={false}
        value={empty(current) ? undefined : String(current)}
        labelRender={() => shown ?? String(current ?? '')}
        options={options}
        loading={loading}
        open={open}
        onOpenChange={setOpen}
        searchValue={text}
        placeholder={spec.placeholder ?? `输入编码或名称查找${column.title}`}
        notFoundContent={loading ? '查找中…' : '没有匹配的记录'}
        onSearch={search}
        onFocus={() => {
          if (!rows.length && !typed.current) void ask('');
        }}
        onBlur={() => {
          // the no-match warning stays on the cell until the next search or choice
          typed.current = '';
          setText('');
        }}
        onChange={(v: string) => {
          const row = rows.find((r) => String(r[valueKey]) === v);
          if (row) choose(row);
        }}
        status={missing ? 'warning' : undefined}
        popupRender={(menu) => (
          <>
            {missing && <div className="renderer-lookup-missing" role="alert">没有编码或条码为“{missing}”的{column.title}，请从列表中选择</div>}
            {menu}
          </>
        )}
      />
    </div>
  );
});

const lookup: LineEditorDef = {
  component: LookupCell,
  check: (c, path) => (c.lookup?.api && c.lookup.display ? [] : [{ path: `${path}.lookup`, message: 'lookup 编辑器缺少 lookup.api 或 lookup.display' }]),
};
export default lookup;
