// text: the value as text; lists are joined with 、.
import { EMPTY, isEmpty, type ColumnTypeDef } from './types';

const text: ColumnTypeDef = {
  searchWidget: 'input',
  cell(column) {
    const empty = column.empty ?? EMPTY;
    return (v) => (isEmpty(v) ? empty : Array.isArray(v) ? v.join('、') : typeof v === 'object' ? JSON.stringify(v) : String(v));
  },
};
export default text;
