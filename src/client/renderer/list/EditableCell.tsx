// A list cell edited in place (column `editable`): a click turns it into an input with the column's
// input filter (money → decimals:2), Enter or leaving the input saves through the schema's code, Esc
// gives up. On success the cell shows the value as stored; on failure it shows what it showed before,
// and the server's message is on screen — the request core's toast, or actionCall's for the codes the
// core hands back silently (spec §8: the PRODUCT_* codes such as a stopped price list).

import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { OK } from '../../../core/codes';
import { readPath } from '../../../core/conditions';
import { actionCall } from '../actions/actionCall';
import { FilteredInput } from '../../widgets/FilteredInput';
import type { CellRenderer, Row } from '../columns/types';
import { apiRight, holds, type RenderEnv } from '../env';
import { fillBody } from '../template';
import type { ColumnSchema, EditableCellSchema } from '../types';

/** The input filter of an editable cell: the schema's, else one that fits the column type. */
export function editFilter(column: ColumnSchema, spec: EditableCellSchema): string | undefined {
  if (spec.filter) return spec.filter;
  if (column.type === 'money') return `decimals:${column.decimals ?? 2}`;
  if (column.type === 'number') return column.decimals ? `decimals:${column.decimals}` : 'int';
  return undefined;
}

const asText = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/** "10.5" and "10.50" are the same amount: saving it again would change nothing. */
function sameValue(a: string, b: string): boolean {
  if (a === b) return true;
  if (a === '' || b === '') return false;
  const x = Number(a);
  const y = Number(b);
  return Number.isFinite(x) && Number.isFinite(y) && x === y;
}

/** Writes the stored value into the row, so the cell (and any remount while scrolling) shows it. */
function writeField(row: Row, path: string, value: unknown): void {
  const keys = path.split('.');
  let cur: Row = row;
  for (const k of keys.slice(0, -1)) {
    if (!cur[k] || typeof cur[k] !== 'object') cur[k] = {};
    cur = cur[k] as Row;
  }
  cur[keys[keys.length - 1]!] = value;
}

export interface EditableCellProps {
  column: ColumnSchema;
  spec: EditableCellSchema;
  row: Row;
  /** How the column draws a value when not editing. */
  render: CellRenderer;
}

export function EditableCell({ column, spec, row, render }: EditableCellProps) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const [saving, setSaving] = useState(false);
  const [, redraw] = useState(0);
  // Open from the click until the first Enter / Esc / blur: Enter saves and the input then loses focus
  // (or goes away), which must not save a second time.
  const open = useRef(false);
  const busy = useRef(false);
  const value = readPath(row, column.field);

  const start = () => {
    if (busy.current) return;
    open.current = true;
    setDraft(asText(value));
    setEditing(true);
  };

  const finish = async (save: boolean) => {
    if (!open.current) return;
    open.current = false;
    const typed = draft.trim();
    if (!save || sameValue(typed, asText(value))) {
      setEditing(false);
      return;
    }
    busy.current = true;
    setSaving(true);
    const data: Row = { ...row, column: column.source ?? {}, value: typed, previous: value ?? null };
    const body = fillBody(spec.body ?? { id: '{id}', [column.field]: '{value}' }, data);
    const env = await actionCall(spec.api, body);
    busy.current = false;
    setSaving(false);
    setEditing(false);
    if (env.code === OK) {
      const stored = spec.result ? readPath(env.data, spec.result) : typed === '' ? null : typed;
      writeField(row, column.field, stored === undefined ? null : stored);
      redraw((n) => n + 1);
      return;
    }
    // The value shown stays what it was; the refusal was shown by actionCall or the request core.
  };

  if (editing) {
    return (
      <FilteredInput
        autoFocus
        size="small"
        className="renderer-editable-input"
        aria-label={column.title}
        filter={editFilter(column, spec)}
        value={draft}
        disabled={saving}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => void finish(true)}
        onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => {
          if (e.key === 'Enter') void finish(true);
          else if (e.key === 'Escape') void finish(false);
        }}
      />
    );
  }
  return (
    <div
      className="renderer-editable-cell"
      role="button"
      tabIndex={0}
      title="点击编辑"
      style={{ cursor: 'text', minHeight: 22 }}
      onClick={start}
      onKeyDown={(e) => {
        if (e.key === 'Enter') start();
      }}
    >
      {render(value, row) as ReactNode}
    </div>
  );
}

/**
 * The cell function of an editable column: the editor where the user holds the right and `when` holds
 * on the row (plus `column`, a dynamic column's item), the plain cell elsewhere. The right is decided
 * once per column, `when` per row.
 */
export function editableCell(column: ColumnSchema, env: RenderEnv, inner: CellRenderer): CellRenderer {
  const spec = column.editable;
  if (!spec?.api) return inner;
  const right = spec.permission ?? apiRight(spec.api);
  if (right !== undefined && !env.hasRight(right)) return inner;
  const source = column.source ?? {};
  return (v, row) => {
    if (spec.when !== undefined && !holds(spec.when, env, { ...row, column: source })) return inner(v, row);
    return <EditableCell column={column} spec={spec} row={row} render={inner} />;
  };
}
