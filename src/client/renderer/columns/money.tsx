// money: 2 decimals by default, exact; the currency character from `currency`, or from the session's
// currency list by the row's `currencyField` (a currency id).
import { formatMoney } from '../../../core/format';
import { EMPTY, isEmpty, type ColumnTypeDef } from './types';

const money: ColumnTypeDef = {
  align: 'right',
  width: 130,
  numeric: true,
  searchWidget: 'numberRange',
  cell(column, { env }) {
    const empty = column.empty ?? EMPTY;
    const decimals = column.decimals ?? 2;
    const fixedChar = column.currency ?? '';
    const field = column.currencyField;
    return (v, row) => {
      if (isEmpty(v)) return empty;
      const char = field ? (env.currencies[String(row[field])]?.currencyCharacter ?? fixedChar) : fixedChar;
      const s = formatMoney(v as string | number, char, decimals);
      return s === '' ? empty : s;
    };
  },
};
export default money;
