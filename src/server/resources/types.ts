// Types of a master-data resource file (schemas/resources/*.json, validated by schemas/meta/resource.schema.json).

export type FieldType =
  | 'string' | 'text' | 'integer' | 'boolean' | 'enum' | 'date' | 'datetime'
  | 'money' | 'decimal' | 'reference' | 'list' | 'json' | 'password';

export interface EnumValue {
  value: string;
  label: string;
}

export interface FieldDef {
  type: FieldType;
  title: string;
  description?: string;
  column?: string;
  required?: boolean;
  unique?: boolean;
  readonly?: boolean;
  default?: unknown;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  format?: 'cidr' | 'email' | 'changes';
  min?: number | string;
  max?: number | string;
  scale?: number;
  values?: EnumValue[];
  dict?: string;
  trueLabel?: string;
  falseLabel?: string;
  resource?: string;
  labelAs?: string;
  items?: 'string' | 'integer';
  maxItems?: number;
  searchable?: boolean;
  filterable?: boolean;
  filterMode?: 'exact' | 'contains' | 'prefix';
  sortable?: boolean;
  export?: boolean;
  import?: boolean;
  width?: number;
  /** integer, money, decimal: summed over all filtered rows when a list asks withTotals. */
  summable?: boolean;
}

export interface ExternalRef {
  table: string;
  column: string;
  title: string;
  companyColumn?: string;
}

export interface ResourceFile {
  $schema?: string;
  name: string;
  title: string;
  description?: string;
  table: string;
  idType?: 'integer' | 'string';
  stamps?: boolean;
  readonly?: boolean;
  labelField: string;
  lookupFields?: string[];
  enabledField?: string;
  defaultSort: { field: string; order: 'ascend' | 'descend' };
  unique?: string[][];
  importKey?: string[];
  tree?: { parentField: string };
  /** table of the bigram keyword index of the searchable fields (resources/keyword-index.ts) */
  keywordIndex?: string;
  referencedBy?: ExternalRef[];
  fields: Record<string, FieldDef>;
}

/** A field with everything resolved: its name, column, and the output property of its label. */
export interface Field extends FieldDef {
  name: string;
  column: string;
  /** reference / list-of-references: property carrying the label(s) in list/get/export. */
  labelAs?: string;
  /** false for password, list, json (no ordering); else the declared value or true. */
  sortable: boolean;
  writable: boolean;
  exported: boolean;
  imported: boolean;
}

/** A place that holds ids of a resource: another resource's field, or a declared external column. */
export interface Referrer {
  title: string;
  table: string;
  column: string;
  companyColumn: string;
  /** true: the column holds a JSON list of ids. */
  list: boolean;
  /** the referring resource when it is one (self-references skip rows being removed together). */
  resource?: string;
}

export interface Resource {
  name: string;
  title: string;
  table: string;
  file: string;
  idType: 'integer' | 'string';
  stamps: boolean;
  readonly: boolean;
  labelField: string;
  lookupFields: string[];
  enabledField?: string;
  defaultSort: { field: string; order: 'ascend' | 'descend' };
  /** every unique key, single-field ones included. */
  uniqueKeys: string[][];
  importKey?: string[];
  tree?: { parentField: string };
  /** table of the bigram keyword index of the searchable fields (resources/keyword-index.ts) */
  keywordIndex?: string;
  fields: Field[];
  fieldMap: Map<string, Field>;
  referrers: Referrer[];
}

export interface ResourceRegistry {
  resources: Map<string, Resource>;
  get(name: string): Resource | undefined;
}
