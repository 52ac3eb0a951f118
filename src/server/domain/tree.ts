// Parent/child rows (categories, departments) as a nested tree for tree selects and tree tables.

export interface TreeNode {
  id: number; key: number; value: number; title: string; code: string; name: string;
  parentId: number | null; sort: number; children: TreeNode[];
  [extra: string]: unknown;
}

type TreeRow = Record<string, unknown>;

/** Nested by parentId, ordered by sort then code; `extra` adds fields per node (e.g. a staff count). */
export function buildTree(rows: TreeRow[], extra: (id: number) => Record<string, unknown> = () => ({})): TreeNode[] {
  const nodes = new Map<number, TreeNode>();
  for (const r of rows) {
    const id = Number(r.id);
    nodes.set(id, {
      id, key: id, value: id, title: String(r.name), code: String(r.code), name: String(r.name),
      parentId: r.parentId == null ? null : Number(r.parentId), sort: Number(r.sort ?? 0), ...extra(id), children: [],
    });
  }
  const roots: TreeNode[] = [];
  for (const n of nodes.values()) {
    // A missing parent or a cycle makes the node a root rather than losing it.
    let cyclic = false;
    for (let p = n.parentId, depth = 0; p !== null && depth < 1000; depth++) {
      if (p === n.id) { cyclic = true; break; }
      p = nodes.get(p)?.parentId ?? null;
    }
    const parent = n.parentId !== null && !cyclic ? nodes.get(n.parentId) : undefined;
    (parent ? parent.children : roots).push(n);
  }
  const order = (list: TreeNode[]) => {
    list.sort((a, b) => a.sort - b.sort || a.code.localeCompare(b.code));
    list.forEach((n) => order(n.children));
  };
  order(roots);
  return roots;
}
