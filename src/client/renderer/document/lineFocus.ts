// Keyboard movement through a document's line table, as desktop ERPs trained clerks: Enter in a cell
// moves to the next editable cell of the line, then to the first of the next line; Enter or Tab out of
// the last cell of the last line adds a line (when that line holds something) and puts the caret in
// its first cell (商品). Cells are found in the DOM of the table (the editors are plain inputs and
// searchable selects), so every registered line editor takes part without knowing of it.

const EDITABLE = 'input:not([type=hidden]):not([disabled]):not([readonly]), textarea:not([disabled]):not([readonly])';

export function lineRowsOf(table: HTMLElement): HTMLElement[] {
  return [...table.querySelectorAll<HTMLElement>('tr.ant-table-row')];
}

export function cellsOf(row: HTMLElement): HTMLElement[] {
  return [...row.querySelectorAll<HTMLElement>(EDITABLE)];
}

export function focusCell(el: HTMLElement | undefined): boolean {
  if (!el) return false;
  el.focus();
  if (el instanceof HTMLInputElement && el.value) el.select();
  return true;
}

/** Where focus goes after `from`: the next cell, the next line's first, or 'add' past the last line. */
export function nextCell(table: HTMLElement, from: HTMLElement): HTMLElement | 'add' | undefined {
  const rows = lineRowsOf(table);
  const row = from.closest<HTMLElement>('tr.ant-table-row');
  if (!row) return undefined;
  const at = rows.indexOf(row);
  const cells = cellsOf(row);
  const i = cells.findIndex((c) => c === from || c.contains(from));
  if (i >= 0 && i < cells.length - 1) return cells[i + 1];
  for (const next of rows.slice(at + 1)) {
    const first = cellsOf(next)[0];
    if (first) return first;
  }
  return 'add';
}

/** True when `from` is in the last editable cell of the last line. */
export function inLastCell(table: HTMLElement, from: HTMLElement): boolean {
  const rows = lineRowsOf(table);
  const last = rows[rows.length - 1];
  if (!last || !last.contains(from)) return false;
  const cells = cellsOf(last);
  return cells.length > 0 && cells[cells.length - 1] === from;
}
