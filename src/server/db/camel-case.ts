// Kysely's CamelCasePlugin with a cheaper result side. The stock mapRow renames keys one at a time into
// a growing object (Object.keys + reduce + a keyed store per column): ~3 µs per 30-column row, as much
// as SQLite's own work on a list page. All rows of one result carry the same columns, so each column's
// name is worked out once per column list; rows whose keys are already those names (SQLite's rows, named
// so when read: sqlite-statements.ts) are kept as they are, others rebuilt by one loop. Same output:
// camelCased keys in the same order; arrays and plain objects among the values are mapped exactly as the
// stock plugin maps them. Plain code, nothing compiled from text.
import { CamelCasePlugin, type PluginTransformResultArgs, type QueryResult, type UnknownRow } from 'kysely';

type Build = (row: UnknownRow, nested: (v: unknown) => unknown) => UnknownRow;

const MAX_SHAPES = 2000;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Object.prototype.toString.call(v) !== '[object Object]') return false;
  const proto = Object.getPrototypeOf(v);
  if (proto === null) return true;
  let top = v as object;
  while (Object.getPrototypeOf(top) !== null) top = Object.getPrototypeOf(top);
  return proto === top;
}

/** Names rows can carry as their keys: all different, and none "__proto__" (assigning it sets the prototype). */
export function usableKeys(names: readonly string[]): boolean {
  return new Set(names).size === names.length && !names.includes('__proto__');
}

/** A row rebuilt under new names, in the same order, each value passed through `nested`. */
function renamer(keys: string[], names: string[]): Build {
  const n = keys.length;
  return (r, nested) => {
    const row: UnknownRow = {};
    for (let i = 0; i < n; i++) row[names[i]] = nested(r[keys[i]]);
    return row;
  };
}

const mayNest = (v: unknown) => v !== null && typeof v === 'object' && (Array.isArray(v) || isPlainObject(v));

/** A row already under its names: kept, unless a value is an array or plain object to be mapped. */
const keepRow: Build = (r, nested) => {
  for (const k in r) {
    if (mayNest(r[k])) {
      const row: UnknownRow = {};
      for (const key in r) row[key] = nested(r[key]);
      return row;
    }
  }
  return r;
};

export interface FastCamelCaseOptions {
  /**
   * The driver's values are never arrays or plain objects (better-sqlite3: numbers, strings, bigints,
   * Buffers, null), so rows it already named need no look at their values at all.
   */
  plainValues?: boolean;
}

export class FastCamelCasePlugin extends CamelCasePlugin {
  readonly #shapes = new Map<string, Build | null>();
  readonly #plainValues: boolean;

  constructor(options: FastCamelCaseOptions = {}) {
    super();
    this.#plainValues = options.plainValues ?? false;
  }

  readonly #nested = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map((it) => (isPlainObject(it) && !this.opt.maintainNestedObjectKeys ? this.mapRow(it) : it));
    if (isPlainObject(v) && !this.opt.maintainNestedObjectKeys) return this.mapRow(v);
    return v;
  };

  override async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const rows = args.result.rows;
    if (!Array.isArray(rows) || rows.length === 0) return super.transformResult(args);
    const keys = Object.keys(rows[0]);
    const build = this.#builder(keys);
    if (!build) return super.transformResult(args);
    if (build === keepRow && this.#plainValues) return args.result;
    const out = new Array<UnknownRow>(rows.length);
    // Rows of one driver result (better-sqlite3, pg) share their columns.
    for (let i = 0; i < rows.length; i++) out[i] = build(rows[i], this.#nested);
    return { ...args.result, rows: out };
  }

  /** The name a result column gets (used by the SQLite driver to name its rows so). */
  readonly columnName = (column: string): string => this.camelCase(column);

  #builder(keys: string[]): Build | null {
    const id = keys.join('\u0000');
    let build = this.#shapes.get(id);
    if (build === undefined) {
      const names = keys.map((k) => this.camelCase(k));
      // Duplicate camelCased names or "__proto__": stock path.
      const ok = usableKeys(names);
      build = !ok ? null : names.every((name, i) => name === keys[i]) ? keepRow : renamer(keys, names);
      if (this.#shapes.size >= MAX_SHAPES) this.#shapes.clear();
      this.#shapes.set(id, build);
    }
    return build;
  }
}
