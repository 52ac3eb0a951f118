// Reads schemas/endpoints/*.json, validates each file against its meta-schema, returns the catalog.
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Catalog, EndpointFile, Family } from '../../core/catalog.ts';
import { SCHEMAS_DIR } from '../paths.ts';

export { SCHEMAS_DIR };
const FAMILIES: Family[] = ['auth', 'storage', 'cdm', 'oms'];

export function loadCatalog(dir = path.join(SCHEMAS_DIR, 'endpoints')): Catalog {
  const meta = JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, 'meta/endpoints.schema.json'), 'utf8'));
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const validate = ajv.compile(meta);
  const families = { auth: [], storage: [], cdm: [], oms: [] } as Catalog['families'];
  for (const family of FAMILIES) {
    const file = path.join(dir, `${family}.json`);
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as EndpointFile;
    if (!validate(data)) {
      const errs = (validate.errors ?? []).map((e) => `${path.relative(process.cwd(), file)}${e.instancePath ? '#' + e.instancePath : ''}: ${e.message}`);
      throw new Error(`接口目录不合法:\n${errs.join('\n')}`);
    }
    if (data.family !== family) throw new Error(`${file}: family 应为 ${family}`);
    const seen = new Set<string>();
    for (const e of data.endpoints) {
      if (seen.has(e.code)) throw new Error(`${file}: 接口编码 ${e.code} 重复`);
      seen.add(e.code);
    }
    families[family] = data.endpoints;
  }
  return { families };
}
