// treeSelect: a choice from a remote tree (nested rows, or flat rows with a parent field).
import { TreeSelect } from 'antd';
import { useTree } from '../data/useOptions';
import { placeholderOf, type WidgetDef, type WidgetProps } from './types';

function TreeSelectWidget({ value, onChange, disabled, readOnly, schema, mode }: WidgetProps) {
  const { tree, loading } = useTree(schema.tree);
  return (
    <TreeSelect
      aria-label={schema.title}
      style={{ width: '100%' }}
      value={value === undefined || value === null || value === '' ? undefined : (value as string)}
      onChange={(v: unknown) => onChange?.(v === undefined || (Array.isArray(v) && v.length === 0) ? undefined : v)}
      treeData={tree}
      loading={loading}
      multiple={schema.multiple}
      treeCheckable={schema.multiple}
      showSearch
      treeNodeFilterProp="title"
      treeDefaultExpandAll
      allowClear={mode === 'filter' || !readOnly}
      disabled={disabled || readOnly}
      placeholder={placeholderOf(schema, true)}
    />
  );
}

const treeSelect: WidgetDef = { component: TreeSelectWidget, choice: true };
export default treeSelect;
