// Binds every catalog code to its handler at start-up. A code without a handler, or a handler that no
// code names, stops the server with a message naming it.
import type { Catalog, EndpointEntry, Family } from '../../core/catalog.ts';
import type { OpHandler } from './context.ts';

export interface BoundEndpoint {
  family: Family;
  entry: EndpointEntry;
  handler: OpHandler;
}

/** Resolves `resource:<name>.<op>` handlers; undefined when the resource or op is unknown. */
export type ResourceResolver = (resource: string, op: string) => OpHandler | undefined;

export function bindCatalog(catalog: Catalog, ops: Record<string, OpHandler>, resolveResource: ResourceResolver): Map<string, BoundEndpoint> {
  const bound = new Map<string, BoundEndpoint>();
  const used = new Set<string>();
  const problems: string[] = [];
  for (const [family, entries] of Object.entries(catalog.families) as [Family, EndpointEntry[]][]) {
    for (const entry of entries) {
      const [kind, name] = entry.handler.split(':', 2) as [string, string];
      let handler: OpHandler | undefined;
      if (kind === 'op') {
        handler = ops[name];
        used.add(name);
      } else if (kind === 'resource') {
        const dot = name.lastIndexOf('.');
        handler = resolveResource(name.slice(0, dot), name.slice(dot + 1));
      }
      if (!handler) problems.push(`接口 ${family}:${entry.code}（${entry.name}）的处理程序 ${entry.handler} 不存在`);
      else bound.set(`${family}:${entry.code}`, { family, entry, handler });
    }
  }
  for (const name of Object.keys(ops)) if (!used.has(name)) problems.push(`处理程序 op:${name} 不在接口目录中`);
  if (problems.length) throw new Error(`接口目录与处理程序不一致，服务拒绝启动：\n${problems.join('\n')}`);
  return bound;
}
