// changes: an audit change list [{field, title, from, to}] as "标题：旧 → 新" lines.
import { EMPTY, isEmpty, type ColumnTypeDef } from './types';

interface Change {
  field?: string;
  title?: string;
  from?: unknown;
  to?: unknown;
}

function show(v: unknown): string {
  if (v === undefined || v === null || v === '') return '空';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

export function changeLines(v: unknown): string[] {
  let list: unknown = v;
  if (typeof v === 'string') {
    try {
      list = JSON.parse(v);
    } catch {
      return [v];
    }
  }
  if (!Array.isArray(list)) return [];
  return (list as Change[]).map((c) => `${c.title ?? c.field ?? ''}：${show(c.from)} → ${show(c.to)}`);
}

const changes: ColumnTypeDef = {
  width: 320,
  cell(column) {
    const empty = column.empty ?? EMPTY;
    return (v) => {
      if (isEmpty(v)) return empty;
      const lines = changeLines(v);
      if (!lines.length) return empty;
      return (
        <div style={{ whiteSpace: 'normal' }}>
          {lines.map((l, i) => (
            <div key={i}>{l}</div>
          ))}
        </div>
      );
    };
  },
};
export default changes;
