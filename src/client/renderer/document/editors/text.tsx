// input / number / money: light line cells. `input` is text with the column's input filter; `number`
// and `money` are business number boxes (widgets/NumberText) that hand the line a value of the type the
// server reads, once, where it is typed: an integer quantity as a number, a decimal or an amount as its
// exact text. A dot typed into an integer quantity is refused visibly, never dropped.
import { memo } from 'react';
import { FilteredInput } from '../../../widgets/FilteredInput';
import { NumberText } from '../../../widgets/NumberText';
import type { LineColumn } from '../../types';
import { lineValue } from '../lines';
import type { LineEditorDef, LineEditorProps } from './types';

export const input: LineEditorDef = {
  component: memo(function TextCell({ column, line, index, onPatch }: LineEditorProps) {
    const value = line[column.field];
    return (
      <FilteredInput
        size="small"
        aria-label={column.title}
        value={value === undefined || value === null ? '' : String(value)}
        onChange={(e) => onPatch(index, { [column.field]: e.target.value })}
      />
    );
  }),
};

function numberEditor(decimalsOf: (c: LineColumn) => number, asText: boolean): LineEditorDef {
  const Editor = memo(function NumberCell({ column, line, index, onPatch }: LineEditorProps) {
    return (
      <NumberText
        size="small"
        aria-label={column.title}
        title={column.title}
        decimals={decimalsOf(column)}
        // an amount that follows the quantity shows what it will be until one is typed
        placeholder={column.follows ? String(lineValue(line, column) ?? '') : undefined}
        value={line[column.field]}
        onValue={(v) => onPatch(index, { [column.field]: asText && v !== undefined ? String(v) : v })}
      />
    );
  });
  return { component: Editor };
}

export const number = numberEditor((c) => c.decimals ?? 0, false);
export const money = numberEditor((c) => c.decimals ?? 2, true);
