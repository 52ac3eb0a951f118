// boolean: a 是 / 否 tag (texts overridable, e.g. 启用 / 停用). Accepts true/false, 1/0, "1"/"0".
import { Tag } from 'antd';
import { EMPTY, isEmpty, type ColumnTypeDef } from './types';

export function truthy(v: unknown): boolean {
  return v === true || v === 1 || v === '1' || v === 'true';
}

const boolean: ColumnTypeDef = {
  align: 'center',
  width: 90,
  searchWidget: 'boolean',
  cell(column) {
    const empty = column.empty ?? EMPTY;
    const yes = <Tag color="green">{column.trueText ?? '是'}</Tag>;
    const no = <Tag>{column.falseText ?? '否'}</Tag>;
    return (v) => (isEmpty(v) ? empty : truthy(v) ? yes : no);
  },
};
export default boolean;
