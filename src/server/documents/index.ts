// The document types the server serves: the built-in definitions (documents/types/) plus any a caller
// adds (tests declare new ones), resolved against the resources and the catalog. Definitions that
// declare `endpoints` get their catalog entries generated here (served by /api/catalog, documented in
// OpenAPI, checked for rights) — for documents no screen calls, such as test fixtures: the client
// imports the JSON catalog (schemas/endpoints), so a document a screen draws lists its codes there.
import type { Catalog, EndpointEntry } from '../../core/catalog.ts';
import { loadCatalog } from '../catalog/load-catalog.ts';
import type { RightInfo } from '../catalog/rights-catalog.ts';
import type { ResourceRegistry } from '../resources/types.ts';
import type { DocumentDefinition } from './definition.ts';
import { DocumentType } from './engine.ts';
import { BUILT_IN_DOCUMENTS } from './types/index.ts';

export type { DocumentDefinition } from './definition.ts';
export { DocumentType, documentOps, findByNumber } from './engine.ts';
export { syncDocumentTables } from './tables.ts';

const OP_NAMES: Record<string, (title: string) => string> = {
  list: (t) => `${t}列表`,
  get: (t) => `${t}详情`,
  save: (t) => `保存${t}`,
  remove: (t) => `删除${t}`,
  relate: (t) => `${t}单据关联`,
  export: (t) => `导出${t}`,
};

/** Catalog entries of the definitions that declare their codes (added to their family's list). */
export function withDocumentEndpoints(catalog: Catalog, defs: DocumentDefinition[]): Catalog {
  const families = { ...catalog.families };
  for (const def of defs) {
    if (!def.endpoints) continue;
    const { family, codes } = def.endpoints;
    const taken = new Set(families[family].map((e) => e.code));
    const added: EndpointEntry[] = [];
    for (const [op, code] of Object.entries(codes)) {
      if (taken.has(code)) throw new Error(`单据定义 ${def.type}: 接口编码 ${family}:${code} 已被占用`);
      const t = def.transitions[op];
      const readOp = op === 'list' || op === 'get' || op === 'relate' || op === 'export';
      const permission = t ? t.right : readOp ? def.rights?.read : def.rights?.edit;
      if (!permission) throw new Error(`单据定义 ${def.type}: 接口 ${op} 没有权限码（rights.read / rights.edit / transitions.${op}.right）`);
      if (!t && !OP_NAMES[op]) throw new Error(`单据定义 ${def.type}: 未知操作 ${op}`);
      added.push({
        code, name: t ? `${t.label}${def.title}` : OP_NAMES[op]!(def.title), method: 'POST', body: 'json', response: op === 'export' ? 'file' : 'json', permission,
        handler: `op:${def.type}.${op}`, ...(t?.overlay || op === 'save' ? { overlay: true } : {}),
        // document writes are safe to retry with the client's Idempotency-Key
        ...(t || op === 'save' || op === 'remove' ? { idempotent: true } : {}),
        description: t ? `{id, version?} ${t.from.map((s) => def.statuses[s]!.label).join('/')} → ${def.statuses[t.to]!.label}` : undefined,
      });
    }
    families[family] = [...families[family], ...added];
  }
  return { ...catalog, families };
}

export function loadDocumentTypes(catalog: Catalog, resources: ResourceRegistry, defs: DocumentDefinition[]): Map<string, DocumentType> {
  const types = new Map<string, DocumentType>();
  for (const def of defs) {
    if (types.has(def.type)) throw new Error(`单据定义 ${def.type} 重复`);
    types.set(def.type, new DocumentType(def, { catalog, resources }));
  }
  return types;
}

/** The rights definitions check in their hooks (rights.also), for the rights catalog. */
export function documentRights(defs: DocumentDefinition[]): RightInfo[] {
  return defs.flatMap((d) => Object.entries(d.rights?.also ?? {}).map(([code, name]) => ({ code, name, group: d.route.split('/')[1] })));
}

export function allDocumentDefinitions(extra: DocumentDefinition[] = []): DocumentDefinition[] {
  return [...BUILT_IN_DOCUMENTS, ...extra];
}

/** The catalog the server serves: the JSON catalog plus the entries document definitions generate. */
export function servedCatalog(extra: DocumentDefinition[] = []): Catalog {
  return withDocumentEndpoints(loadCatalog(), allDocumentDefinitions(extra));
}

