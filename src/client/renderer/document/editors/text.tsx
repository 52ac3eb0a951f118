// input / number / money: a light text box with the column's input filter (int, decimals:n).
import { memo } from 'react';
import { FilteredInput } from '../../../widgets/FilteredInput';
import type { LineColumn } from '../../types';
import type { LineEditorDef, LineEditorProps } from './types';

function textEditor(filterOf: (c: LineColumn) => string | undefined): LineEditorDef {
  const Editor = memo(function TextCell({ column, line, index, onPatch }: LineEditorProps) {
    const value = line[column.field];
    return (
      <FilteredInput
        size="small"
        aria-label={column.title}
        filter={filterOf(column)}
        value={value === undefined || value === null ? '' : String(value)}
        onChange={(e) => onPatch(index, { [column.field]: e.target.value })}
      />
    );
  });
  return { component: Editor };
}

export const input = textEditor(() => undefined);
export const number = textEditor((c) => (c.decimals ? `decimals:${c.decimals}` : 'int'));
export const money = textEditor((c) => `decimals:${c.decimals ?? 2}`);
