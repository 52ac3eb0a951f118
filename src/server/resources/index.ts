// Master-data resources: schemas/resources/*.json served by one set of generic handlers.
import type { OpHandler } from '../catalog/context.ts';
import { makeHandler } from './handlers.ts';
import type { ResourceRegistry } from './types.ts';

export { loadResources, RESOURCES_DIR } from './registry.ts';
export type { Field, FieldDef, FieldType, Resource, ResourceFile, ResourceRegistry } from './types.ts';
export { fetchRow, makeHandler, notFound, queryEnv, type ResourceOp } from './handlers.ts';

/** `resource:<name>.<op>` → its handler (built once per name and op); undefined when unknown. */
export function resourceResolver(reg: ResourceRegistry): (resource: string, op: string) => OpHandler | undefined {
  const cache = new Map<string, OpHandler | undefined>();
  return (resource, op) => {
    const key = `${resource}.${op}`;
    if (!cache.has(key)) {
      const r = reg.get(resource);
      cache.set(key, r ? makeHandler(reg, r, op) : undefined);
    }
    return cache.get(key);
  };
}
