// rightsTree: the function rights a role holds, as a checkable tree built from the rights catalog
// (cdm 013308: [{code, name, route, group}]) grouped by menu group, then by route. The value is the
// list of right codes; group and route nodes are only for ticking many at once.

import { Spin, Tree } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { OK } from '../../../core/codes';
import { actionCall } from '../actions/actionCall';
import { MENU_GROUP_TITLES, type MenuGroup } from '../../router/screenTypes';
import type { WidgetDef, WidgetProps } from './types';

export interface RightInfo {
  code: string;
  name: string;
  route?: string;
  group?: string;
}

interface Node {
  key: string;
  title: string;
  children?: Node[];
}

const GROUP_PREFIX = 'group:';
const ROUTE_PREFIX = 'route:';
const OTHER = '其他';

/** group → route → rights; a route's own right (its page) is listed first and titles the route node. */
export function buildRightsTree(rights: readonly RightInfo[]): Node[] {
  const groups = new Map<string, Map<string, RightInfo[]>>();
  for (const r of rights) {
    const g = r.group ?? OTHER;
    const route = r.route ?? '';
    if (!groups.has(g)) groups.set(g, new Map());
    const routes = groups.get(g)!;
    if (!routes.has(route)) routes.set(route, []);
    routes.get(route)!.push(r);
  }
  const order = Object.keys(MENU_GROUP_TITLES);
  const sortedGroups = [...groups.keys()].sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
  return sortedGroups.map((g) => {
    const routes = groups.get(g)!;
    const children: Node[] = [];
    for (const [route, list] of routes) {
      if (!route) {
        children.push(...list.map((r) => ({ key: r.code, title: `${r.name}（${r.code}）` })));
        continue;
      }
      // The page right is the shortest code of the route (baseConfig.currency before .edit).
      const sorted = [...list].sort((a, b) => a.code.length - b.code.length || a.code.localeCompare(b.code));
      const page = sorted[0]!;
      children.push({
        key: `${ROUTE_PREFIX}${route}`,
        title: page.name,
        children: sorted.map((r) => ({ key: r.code, title: r === page ? `${r.name}（页面）` : r.name })),
      });
    }
    return { key: `${GROUP_PREFIX}${g}`, title: MENU_GROUP_TITLES[g as MenuGroup] ?? g, children };
  });
}

function RightsTreeWidget({ value, onChange, disabled, readOnly, schema }: WidgetProps) {
  const [rights, setRights] = useState<RightInfo[] | null>(null);
  useEffect(() => {
    let live = true;
    void actionCall<RightInfo[]>(schema.api ?? 'cdm:013308', {}).then((env) => {
      if (live) setRights(env.code === OK && Array.isArray(env.data) ? env.data : []);
    });
    return () => {
      live = false;
    };
  }, [schema.api]);
  const tree = useMemo(() => buildRightsTree(rights ?? []), [rights]);
  const known = useMemo(() => new Set((rights ?? []).map((r) => r.code)), [rights]);
  if (!rights) return <Spin size="small" />;
  const checked = Array.isArray(value) ? value.map(String) : [];
  return (
    <div style={{ maxHeight: 420, overflow: 'auto', border: '1px solid #f0f0f0', borderRadius: 6, padding: 8 }}>
      <Tree
        checkable
        selectable={false}
        disabled={disabled || readOnly}
        treeData={tree}
        defaultExpandedKeys={tree.map((n) => n.key)}
        checkedKeys={checked}
        onCheck={(keys) => {
          const list = (Array.isArray(keys) ? keys : keys.checked).map(String).filter((k) => known.has(k));
          onChange?.(list);
        }}
      />
    </div>
  );
}

const rightsTree: WidgetDef = { component: RightsTreeWidget, choice: true, list: true };
export default rightsTree;
