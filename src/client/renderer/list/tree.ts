// Tree rows (ListPart.tree): a list code answering nested rows ({..., children: [...]}) is drawn as an
// expandable tree table. Leaves answered with `children: []` would still get an expand icon from antd,
// so empty child lists are dropped; every row with children starts open unless the schema says not.

import type { ListPart, TreeRows } from '../types';

export type Row = Record<string, unknown>;

/** The tree options of a list part, or null for a flat list. */
export function treeOf(part: Pick<ListPart, 'tree'>): Required<TreeRows> | null {
  if (!part.tree) return null;
  const t = part.tree === true ? {} : part.tree;
  return { children: t.children ?? 'children', expandAll: t.expandAll ?? true };
}

/** Copies of the rows without empty child lists (at any depth); rows without children are kept as they are. */
export function pruneEmptyChildren(rows: readonly Row[], childrenKey: string): Row[] {
  return rows.map((r) => {
    const kids = r[childrenKey];
    if (!Array.isArray(kids)) return r;
    const { [childrenKey]: _drop, ...rest } = r;
    return kids.length ? { ...rest, [childrenKey]: pruneEmptyChildren(kids as Row[], childrenKey) } : rest;
  });
}

/** Keys of every row that has children (for opening the whole tree). */
export function parentKeys(rows: readonly Row[], rowKey: string, childrenKey: string): (string | number)[] {
  const out: (string | number)[] = [];
  const walk = (list: readonly Row[]) => {
    for (const r of list) {
      const kids = r[childrenKey];
      if (Array.isArray(kids) && kids.length) {
        out.push(r[rowKey] as string | number);
        walk(kids as Row[]);
      }
    }
  };
  walk(rows);
  return out;
}
