// enum: the label of the value from static options, a dictionary or a remote option code (loaded
// before the table draws); a coloured tag when the option has a colour. Unknown values show as-is.
import { Tag } from 'antd';
import { EMPTY, isEmpty, type ColumnTypeDef } from './types';

const enumType: ColumnTypeDef = {
  needsOptions: true,
  searchWidget: 'select',
  cell(column, { options }) {
    const empty = column.empty ?? EMPTY;
    const one = (v: unknown) => {
      const o = options?.get(String(v));
      if (!o) return String(v);
      return o.color ? (
        <Tag key={String(v)} color={o.color}>
          {o.label}
        </Tag>
      ) : (
        o.label
      );
    };
    return (v) => {
      if (isEmpty(v)) return empty;
      if (Array.isArray(v)) {
        const parts = v.map(one);
        return parts.every((p) => typeof p === 'string') ? parts.join('、') : <>{parts}</>;
      }
      return one(v);
    };
  },
};
export default enumType;
