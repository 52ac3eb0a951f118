// number: thousands separators; `decimals` fixes the places (exact, decimal.js), else the value keeps
// its own.
import { formatNumber, toDecimal } from '../../../core/format';
import { EMPTY, type ColumnTypeDef } from './types';

const number: ColumnTypeDef = {
  align: 'right',
  width: 110,
  numeric: true,
  searchWidget: 'numberRange',
  cell(column) {
    const empty = column.empty ?? EMPTY;
    const fixed = column.decimals;
    return (v) => {
      const d = toDecimal(v as string | number | null | undefined);
      if (!d) return empty;
      return formatNumber(d, fixed ?? d.decimalPlaces());
    };
  },
};
export default number;
