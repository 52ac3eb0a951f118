// 数据库结构对比 (cdm 019805): the live database structure — tables, columns (type, null), indexes —
// against what the migrations (and the managed document tables' definitions) declare. The declared
// structure is built on the spot: every migration run on an empty scratch database (SQLite: a temporary
// file; PostgreSQL: a temporary schema of the same database, dropped afterwards), then both are read
// the same way and compared. Differences: 缺少 (declared, not in the live database), 多出 (live only),
// 不同 (both, but type / null / index definition differ).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { CallContext } from '../../catalog/context.ts';
import { openDatabase, type Dialect } from '../../db/connection.ts';
import { prepareSchema } from '../../schema.ts';

interface Structure {
  /** table → column → "type null|not null" */
  columns: Map<string, Map<string, string>>;
  /** index name → "table(columns) unique?" */
  indexes: Map<string, string>;
}

type Row = Record<string, unknown>;

async function readSqlite(db: Kysely<any>): Promise<Structure> {
  const tables = (await sql<Row>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(db)).rows;
  const columns = new Map<string, Map<string, string>>();
  for (const t of tables) {
    const name = String(t.name);
    const cols = (await sql<Row>`select * from pragma_table_info(${name})`.execute(db)).rows;
    columns.set(name, new Map(cols.map((c) => [String(c.name), `${String(c.type).toLowerCase()} ${Number(c.notnull) ? 'not null' : 'null'}${Number(c.pk) ? ' pk' : ''}`])));
  }
  const idx = (await sql<Row>`select name, tbl_name from sqlite_master where type = 'index' and name not like 'sqlite_%'`.execute(db)).rows;
  const indexes = new Map<string, string>();
  for (const i of idx) {
    const cols = (await sql<Row>`select name from pragma_index_info(${String(i.name)}) order by seqno`.execute(db)).rows;
    const list = (await sql<Row>`select "unique" as u from pragma_index_list(${String(i.tbl_name)}) where name = ${String(i.name)}`.execute(db)).rows;
    indexes.set(String(i.name), `${String(i.tbl_name)}(${cols.map((c) => String(c.name)).join(', ')})${Number(list[0]?.u) ? ' unique' : ''}`);
  }
  return { columns, indexes };
}

async function readPostgres(db: Kysely<any>, schema: string): Promise<Structure> {
  const cols = (await sql<Row>`select table_name, column_name, data_type, is_nullable from information_schema.columns
    where table_schema = ${schema} order by table_name, ordinal_position`.execute(db)).rows;
  const columns = new Map<string, Map<string, string>>();
  for (const c of cols) {
    const t = String(c.table_name ?? c.tableName);
    if (!columns.has(t)) columns.set(t, new Map());
    columns.get(t)!.set(String(c.column_name ?? c.columnName), `${String(c.data_type ?? c.dataType)} ${String(c.is_nullable ?? c.isNullable) === 'YES' ? 'null' : 'not null'}`);
  }
  const idx = (await sql<Row>`select indexname, indexdef from pg_indexes where schemaname = ${schema}`.execute(db)).rows;
  // the definition without the schema name, so a scratch schema's reads like the live one's
  const indexes = new Map(idx.map((i) => [String(i.indexname), String(i.indexdef).replaceAll(`${schema}.`, '').replace(/^CREATE /, '')]));
  return { columns, indexes };
}

async function declared(ctx: CallContext, dialect: Dialect): Promise<Structure> {
  const defs = [...ctx.documents.values()].map((t) => t.def);
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'structure-'));
    const scratch = openDatabase({ dataDir: dir });
    try {
      await prepareSchema(scratch.db, 'sqlite', defs);
      return await readSqlite(scratch.db);
    } finally {
      await scratch.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const schema = `structure_${crypto.randomBytes(5).toString('hex')}`;
  await sql.raw(`create schema ${schema}`).execute(ctx.db);
  const url = new URL(ctx.config.databaseUrl!);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const scratch = openDatabase({ databaseUrl: url.toString(), dataDir: ctx.config.dataDir, poolSize: 2 });
  try {
    await prepareSchema(scratch.db, 'postgres', defs);
    return await readPostgres(ctx.db, schema);
  } finally {
    await scratch.close();
    await sql.raw(`drop schema ${schema} cascade`).execute(ctx.db);
  }
}

export interface StructureDifference {
  key: string;
  kind: 'table' | 'column' | 'index';
  kindText: string;
  object: string;
  status: 'missing' | 'extra' | 'changed';
  live: string | null;
  declared: string | null;
}

const KIND = { table: '表', column: '列', index: '索引' } as const;

export function compareStructures(live: Structure, want: Structure): StructureDifference[] {
  const out: StructureDifference[] = [];
  const push = (kind: StructureDifference['kind'], object: string, l: string | null, d: string | null) => {
    const status = l === null ? 'missing' : d === null ? 'extra' : 'changed';
    out.push({ key: `${kind}:${object}`, kind, kindText: KIND[kind], object, status, live: l, declared: d });
  };
  for (const [table, cols] of want.columns) {
    const have = live.columns.get(table);
    if (!have) { push('table', table, null, `${cols.size} 列`); continue; }
    for (const [col, def] of cols) {
      const l = have.get(col);
      if (l === undefined) push('column', `${table}.${col}`, null, def);
      else if (l !== def) push('column', `${table}.${col}`, l, def);
    }
    for (const [col, def] of have) if (!cols.has(col)) push('column', `${table}.${col}`, def, null);
  }
  for (const [table, cols] of live.columns) if (!want.columns.has(table)) push('table', table, `${cols.size} 列`, null);
  for (const [name, def] of want.indexes) {
    const l = live.indexes.get(name);
    if (l === undefined) push('index', name, null, def);
    else if (l !== def) push('index', name, l, def);
  }
  for (const [name, def] of live.indexes) if (!want.indexes.has(name)) push('index', name, def, null);
  return out.sort((a, b) => a.key.localeCompare(b.key));
}

export async function diffStructure(ctx: CallContext) {
  const dialect = ctx.database.dialect;
  const started = Date.now();
  const live = dialect === 'sqlite' ? await readSqlite(ctx.db) : await readPostgres(ctx.db, String((await sql<Row>`select current_schema() as s`.execute(ctx.db)).rows[0]?.s ?? 'public'));
  const want = await declared(ctx, dialect);
  const list = compareStructures(live, want);
  return {
    list, total: list.length, page: 1, pageSize: Math.max(1, list.length),
    dialect: dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL',
    tables: live.columns.size, indexes: live.indexes.size, ms: Date.now() - started,
  };
}
