// One screen format: the renderer's types (src/client/renderer/types.ts) and the meta-schema every screen
// file is validated against (schemas/meta/screen-kinds.schema.json) name the same keys for each part.
// A key added to one and not the other fails here, naming the part and the key — so a schema file can
// never use a key the renderer ignores, nor the renderer read a key no schema file may write.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const typesFile = path.join(root, 'src/client/renderer/types.ts');
const meta = JSON.parse(fs.readFileSync(path.join(root, 'schemas/meta/screen-kinds.schema.json'), 'utf8'));
const screenKeys = Object.keys(JSON.parse(fs.readFileSync(path.join(root, 'schemas/meta/screen.schema.json'), 'utf8')).properties ?? {});

/** meta-schema part ↔ renderer interface */
const PARTS: Record<string, string> = {
  column: 'ColumnSchema', filter: 'FilterSchema', field: 'FieldSchema', formPart: 'FormPart', listPart: 'ListPart', editableCell: 'EditableCellSchema',
  dynamicColumns: 'DynamicColumnsSchema', lineColumn: 'LineColumn', document: 'DocumentScreenPart', detail: 'DetailScreenPart', report: 'ReportScreenPart',
  totals: 'TotalsSchema', remoteOptions: 'RemoteOptions', remoteTree: 'RemoteTree', option: 'OptionItem', form: 'FormScreenPart',
};
/** Keys set by the renderer itself, never written in a schema file (documented on the interface). */
const RENDERER_ONLY: Record<string, string[]> = { ColumnSchema: ['source'], OptionItem: ['code', 'barcode'] };
/** Keys the meta-schema takes over from a shared part that the kind does not draw (a known gap: reports draw no tree). */
const META_ONLY: Record<string, string[]> = { report: ['tree'] };

function interfaceKeys(): Map<string, string[]> {
  const program = ts.createProgram([typesFile], { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, noEmit: true });
  const checker = program.getTypeChecker();
  const out = new Map<string, string[]>();
  ts.forEachChild(program.getSourceFile(typesFile)!, (n) => {
    if (ts.isInterfaceDeclaration(n)) out.set(n.name.text, checker.getPropertiesOfType(checker.getTypeAtLocation(n.name)).map((p) => p.name));
  });
  return out;
}

function metaKeys(def: any, seen = new Set<unknown>()): Set<string> {
  const out = new Set<string>();
  if (!def || seen.has(def)) return out;
  seen.add(def);
  if (def.$ref) for (const k of metaKeys(meta.$defs[String(def.$ref).split('/').pop()!], seen)) out.add(k);
  for (const k of ['allOf', 'anyOf', 'oneOf']) for (const d of def[k] ?? []) for (const p of metaKeys(d, seen)) out.add(p);
  for (const p of Object.keys(def.properties ?? {})) out.add(p);
  return out;
}

describe('screen format: renderer types and meta-schema agree', () => {
  const types = interfaceKeys();
  it.each(Object.entries(PARTS))('%s ↔ %s', (part, iface) => {
    expect(meta.$defs[part], `meta-schema part ${part}`).toBeTruthy();
    expect(types.get(iface), `interface ${iface}`).toBeTruthy();
    const inMeta = metaKeys(meta.$defs[part]);
    const inTypes = new Set(types.get(iface)!.filter((k) => !(RENDERER_ONLY[iface] ?? []).includes(k)));
    const kindLevel = ['list', 'form', 'detail', 'document', 'report'].includes(part) ? screenKeys : [];
    expect([...inTypes].filter((k) => !inMeta.has(k) && !kindLevel.includes(k)), `keys in ${iface} but not in meta-schema $defs/${part}`).toEqual([]);
    expect([...inMeta].filter((k) => !inTypes.has(k) && !(META_ONLY[part] ?? []).includes(k)), `keys in meta-schema $defs/${part} but not in ${iface}`).toEqual([]);
  });
});

describe('screen format: every registered name is a name the meta-schema allows, and back', () => {
  it('widgets, column types, line editors, actions, detail sections and chart parts', async () => {
    const r = await import('../../src/client/renderer/registries');
    const enumOf = (v: any) => [...(v?.enum ?? [])].sort();
    const pairs: Array<[string, string[], string[]]> = [
      ['widgets (field.widget)', r.widgets.types(), enumOf(meta.$defs.field.properties.widget)],
      ['column types (column.type)', r.columnTypes.types(), enumOf(meta.$defs.column.properties.type)],
      ['line editors (lineColumn.editor)', r.lineEditors.types(), enumOf(meta.$defs.lineColumn.properties.editor)],
      ['actions (action.action)', r.actions.types(), enumOf(meta.$defs.action.properties.action)],
      ['detail sections (section.type)', r.sections.types(), enumOf(meta.$defs.section.properties.type)],
      ['chart parts (chartType)', r.chartParts.types(), enumOf(meta.$defs.chartType)],
    ];
    for (const [what, registered, allowed] of pairs) expect([...registered].sort(), what).toEqual(allowed);
  });
});
