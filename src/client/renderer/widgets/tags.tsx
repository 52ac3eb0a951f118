// tags: a list of free texts (container types, e-mail addresses), typed and confirmed with Enter or a
// separator (comma, semicolon, space); suggestions from options when the schema gives some. The value
// is an array of strings (empty: undefined).
import { Select } from 'antd';
import { useOptions } from '../data/useOptions';
import { placeholderOf, type WidgetDef, type WidgetProps } from './types';

export const TAG_SEPARATORS = [',', '，', ';', '；', ' '];

/** The value as the list the Select shows: arrays as they are, a text split at the separators. */
export function tagList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v) => v !== null && v !== undefined && v !== '').map(String);
  if (typeof value === 'string') return value.split(/[,，;；\s]+/).map((s) => s.trim()).filter(Boolean);
  return [];
}

function TagsWidget({ value, onChange, disabled, readOnly, schema, mode }: WidgetProps) {
  const { options } = useOptions(schema);
  return (
    <Select
      aria-label={schema.title}
      mode="tags"
      style={{ width: '100%' }}
      value={tagList(value)}
      onChange={(v: string[]) => {
        const list = v.map((s) => s.trim()).filter(Boolean);
        onChange?.(list.length ? [...new Set(list)] : undefined);
      }}
      tokenSeparators={TAG_SEPARATORS}
      options={options.map((o) => ({ value: String(o.value), label: o.label }))}
      disabled={disabled || readOnly}
      open={readOnly ? false : undefined}
      allowClear={mode === 'filter' || !readOnly}
      placeholder={placeholderOf(schema, false)}
    />
  );
}

const tags: WidgetDef = { component: TagsWidget, list: true };
export default tags;
