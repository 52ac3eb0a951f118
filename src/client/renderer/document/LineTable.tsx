// The line table of a document: rows are plain data in React state (no formily field per cell — see
// DESIGN §6, formily ArrayTable slows down with many rows); editable cells are registered line editors
// (input, number, money, lookup, units) that report patches; computed cells (qty × price) and the
// totals row are exact. Above 50 editable (100 read-only) lines the rows are virtual.

import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Table } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { useCallback, useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import type { RenderEnv } from '../env';
import { TotalsRow } from '../list/TotalsRow';
import { columnTypes, lineEditors } from '../registries';
import { fillText } from '../template';
import { readPath } from '../../../core/conditions';
import type { LineColumn, TotalsSchema } from '../types';
import { afterPaint } from '../form/keyboard';
import { cellsOf, focusCell, inLastCell, lineRowsOf, nextCell } from './lineFocus';
import { lineValue, type Line } from './lines';
import { ColumnTitleWithNote } from '../list/buildColumns';

/**
 * What a read-only cell shows: the computed product; for a lookup column its `display` text (the
 * product's code and name, not its id — what the editor shows); else its field, a dotted one
 * ("units.text") read as a path, as list columns do.
 */
function cellValue(line: Line, c: LineColumn): unknown {
  if (c.product) return lineValue(line, c);
  const value = readPath(line, c.field);
  if (c.lookup?.display && value !== undefined && value !== null && value !== '') return fillText(c.lookup.display, line).trim() || value;
  return value;
}

const isNothing = (v: unknown) => v === undefined || v === null || v === '' || v === 0 || v === '0' || (typeof v === 'string' && Number(v) === 0 && v.trim() !== '');

export interface LineTableProps {
  columns: LineColumn[];
  lines: Line[];
  rowKey: string;
  totals?: TotalsSchema;
  env: RenderEnv;
  readOnly: boolean;
  /** Header form values, for editors that send them (lookups). */
  header?: Record<string, unknown>;
  onChange(lines: Line[]): void;
}

const NO_HEADER: Record<string, unknown> = {};
const VISUALLY_HIDDEN = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

export function LineTable({ columns, lines, rowKey, totals, env, readOnly, header = NO_HEADER, onChange }: LineTableProps) {
  // Editors keep a stable callback; the latest lines are read through a ref so a keystroke in one row
  // does not re-create every other row's cells.
  const linesRef = useRef(lines);
  linesRef.current = lines;
  const onPatch = useCallback(
    (index: number, patch: Line) => {
      const next = linesRef.current.slice();
      next[index] = { ...next[index], ...patch };
      onChange(next);
    },
    [onChange],
  );
  // A new blank line needs something to pick (a lookup cell: product, carton, invoice…). Tables without
  // one hold only what their source document or the server brought: no 添加行 there (a blank line would
  // be dropped or refused on save); removing a brought line stays possible.
  const canAdd = !readOnly && columns.some((c) => c.editor === 'lookup');
  // Focus after a line is added or removed, once the table shows it: that line's first cell.
  const boxRef = useRef<HTMLDivElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const focusLine = useRef<number | null>(null);
  useEffect(() => {
    const at = focusLine.current;
    if (at === null || !boxRef.current) return;
    focusLine.current = null;
    const rows = lineRowsOf(boxRef.current);
    const row = rows[Math.min(at, rows.length - 1)];
    if (!focusCell(row ? cellsOf(row)[0] : undefined)) addRef.current?.focus();
  }, [lines]);
  const addLine = useCallback(() => {
    focusLine.current = linesRef.current.length;
    onChange([...linesRef.current, { __key: newLineKey() }]);
  }, [onChange]);
  const remove = useCallback(
    (index: number) => {
      // The line that takes its place (or the one above it, or 添加行) gets the caret: never the page.
      focusLine.current = index;
      onChange(linesRef.current.filter((_l, i) => i !== index));
    },
    [onChange],
  );
  /** Enter (or a lookup's resolved Enter) moves on; past the last cell of a line with content, a new line. */
  const advance = useCallback(
    (from: HTMLElement) => {
      if (!boxRef.current) return;
      const next = nextCell(boxRef.current, from);
      if (next === 'add') {
        if (canAdd && hasContent(linesRef.current[linesRef.current.length - 1])) addLine();
      } else focusCell(next);
    },
    [addLine, canAdd],
  );
  // A lookup that just filled its line: the row is drawn again first (a product brings its pack boxes).
  // The move waits for a paint, which on a busy machine comes late: should the clerk have typed into the
  // cell again meanwhile (the next scan), the move is stale and dropped — taken now, it would pull the
  // caret out of that scan and close the lookup's list with its no-match warning.
  const advanceAfterPaint = useCallback(
    (from: HTMLElement) =>
      afterPaint(() => {
        if (from instanceof HTMLInputElement && from.value !== '') return;
        advance(from);
      }),
    [advance],
  );
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (readOnly || e.nativeEvent.isComposing || e.ctrlKey || e.altKey || e.metaKey || !boxRef.current) return;
    const target = e.target as HTMLElement;
    if (!(target instanceof HTMLInputElement) || !target.closest('tr.ant-table-row')) return;
    if (e.key === 'Enter') {
      e.preventDefault();
      advance(target);
    } else if (e.key === 'Tab' && !e.shiftKey && canAdd && inLastCell(boxRef.current, target) && hasContent(linesRef.current[linesRef.current.length - 1])) {
      e.preventDefault();
      addLine();
    }
  };

  // progress columns (已发货, 已签收 …) wait until the document has progressed: a column that hides when
  // empty shows once any line holds a value other than 0 (memoised on the hidden set, not on each keystroke)
  const hiddenKey = columns.filter((c) => c.hideWhenEmpty && lines.every((l) => isNothing(readPath(l, c.field)))).map((c) => c.field).join('|');
  const shownColumns = useMemo(() => {
    const hidden = new Set(hiddenKey.split('|'));
    return columns.filter((c) => !c.hideWhenEmpty || !hidden.has(c.field));
  }, [columns, hiddenKey]);
  const tableColumns = useMemo(() => {
    const out: ColumnType<Line>[] = shownColumns.map((c, i) => {
      const def = columnTypes.peek(c.type ?? 'text');
      const cell = def?.cell(c, { env });
      const Editor = !readOnly && c.editor && !c.product ? lineEditors.peek(c.editor)?.component : undefined;
      return {
        key: c.field,
        title: c.note ? <ColumnTitleWithNote title={c.title} note={c.note} /> : c.title,
        // The line number and the first column (the product) stay in view while the line scrolls sideways.
        fixed: i === 0 ? ('left' as const) : undefined,
        width: c.width ?? def?.width ?? 120,
        align: Editor ? undefined : (c.align ?? def?.align),
        render: (_: unknown, line: Line, index: number) =>
          Editor ? <Editor column={c} line={line} index={index} header={header} onPatch={onPatch} onEnterDone={advanceAfterPaint} /> : cell ? cell(cellValue(line, c), line) : String(cellValue(line, c) ?? ''),
      };
    });
    out.unshift({ key: '__no', title: '行', width: 48, align: 'center', fixed: 'left', render: (_: unknown, _l: Line, index: number) => index + 1 });
    if (!readOnly) {
      out.push({
        key: '__remove',
        // Named for screen readers (a header cell with no text), not shown.
        title: <span style={VISUALLY_HIDDEN}>删除</span>,
        width: 48,
        render: (_: unknown, _line: Line, index: number) => (
          <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={`删除第 ${index + 1} 行`} onClick={() => remove(index)} />
        ),
      });
    }
    return out;
  }, [shownColumns, env, readOnly, onPatch, remove, header, advanceAfterPaint]);

  const shown = useMemo(() => shownColumns.map((c) => ({ ...c, field: c.field })), [shownColumns]);
  // What the totals row sums: each line's shown values. A keystroke changes one line object; the others
  // keep theirs, so their computed values are reused (per columns definition).
  const computedCache = useMemo(() => new WeakMap<Line, Line>(), [columns]);
  const computedLines = useMemo(
    () =>
      lines.map((l) => {
        let v = computedCache.get(l);
        if (!v) {
          v = Object.fromEntries(columns.map((c) => [c.field, lineValue(l, c)])) as Line;
          computedCache.set(l, v);
        }
        return v;
      }),
    [lines, columns, computedCache],
  );
  // Editable rows re-render on every keystroke: virtual rows pay off sooner there (bench:render -- --only doc
  // measured ~60 ms per keystroke at 100 plain rows against ~20 ms at 500 virtual ones).
  const virtual = lines.length > (readOnly ? 100 : 50);
  return (
    <div ref={boxRef} onKeyDown={onKeyDown}>
      <Table<Line>
        size="small"
        className="renderer-line-table"
        rowKey={(l) => String(l[rowKey] ?? l.__key ?? lines.indexOf(l))}
        columns={tableColumns}
        dataSource={lines}
        pagination={false}
        virtual={virtual}
        locale={{ emptyText: readOnly ? '没有明细' : canAdd ? '还没有明细，点击“添加行”' : '还没有明细：选择来源单据后带出' }}
        scroll={{ x: tableColumns.reduce((s, c) => s + Number(c.width ?? 120), 0), y: virtual ? 480 : undefined }}
        // Called, not rendered as <TotalsRow/>: the table keeps a footer under virtual rows only when the
        // summary's top element is Table.Summary itself (fixed), not a component wrapping it.
        summary={totals?.fields.length ? () => TotalsRow({ rows: computedLines, shown, fields: totals.fields, label: totals.label ?? '合计', leading: 1, trailing: readOnly ? 0 : 1, env, fixed: virtual }) : undefined}
      />
      {canAdd && (
        <Button ref={addRef} type="dashed" block icon={<PlusOutlined />} style={{ marginTop: 8 }} onClick={addLine}>
          添加行
        </Button>
      )}
    </div>
  );
}

/** A line holds something a clerk typed or chose (not only the table's own key). */
function hasContent(line: Line | undefined): boolean {
  return !!line && Object.entries(line).some(([k, v]) => !k.startsWith('__') && v !== undefined && v !== null && v !== '');
}

let lineSeq = 0;
/** A key for a line typed here (no id yet): React keeps each row's inputs with its own line. */
export function newLineKey(): string {
  lineSeq += 1;
  return `new-${lineSeq}`;
}
