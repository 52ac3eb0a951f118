// The typed view of the database for domain code: Kysely over the table types of ./types.ts (generated
// from the migrations by `npm run db:types`), so a query names only real tables and columns and its rows
// come back typed — no `as Row` casts. The connection is the same one (connection.ts stays untyped for
// the generic resources, which address tables by names from schema files); these are views of it.
import type { DeleteQueryBuilder, DeleteResult, InsertQueryBuilder, InsertResult, Insertable, Kysely, Selectable, SelectQueryBuilder, UpdateQueryBuilder, UpdateResult } from 'kysely';
import type { Tenant } from '../catalog/tenant.ts';
import type { DB as Untyped } from './connection.ts';
import type { DB } from './types.ts';

export type { DB } from './types.ts';
export type TypedDB = Kysely<DB>;

/** Tables that belong to a company (have a companyId column). */
export type TenantTable = { [K in keyof DB]: 'companyId' extends keyof DB[K] ? K : never }[keyof DB];

/** A new row of a company's table, less the companyId the tenant fills in. */
export type TenantInsert<T extends TenantTable> = Omit<Insertable<DB[T]>, 'companyId'>;

/** The typed view of a connection or transaction handle. */
export const typed = (db: Untyped): TypedDB => db as unknown as TypedDB;

/** Tenant (catalog/tenant.ts), typed: every query scoped by the caller's company. */
export class TypedTenant {
  constructor(readonly db: TypedDB, readonly companyId: number) {}

  static of(tenant: Tenant): TypedTenant {
    return new TypedTenant(typed(tenant.db), tenant.companyId);
  }

  select<T extends TenantTable>(table: T): SelectQueryBuilder<DB, T, object> {
    // (Kysely cannot follow `${T}.companyId` through a type parameter; the result type is the plain one.)
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return (this.db.selectFrom(table) as any).where(`${table}.companyId`, '=', this.companyId);
  }

  update<T extends TenantTable>(table: T): UpdateQueryBuilder<DB, T, T, UpdateResult> {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return (this.db.updateTable(table) as any).where(`${table}.companyId`, '=', this.companyId);
  }

  delete<T extends TenantTable>(table: T): DeleteQueryBuilder<DB, T, DeleteResult> {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return (this.db.deleteFrom(table) as any).where(`${table}.companyId`, '=', this.companyId);
  }

  /** Insert rows into a company's table; the caller's company is written into each. */
  insert<T extends TenantTable>(table: T, values: TenantInsert<T> | readonly TenantInsert<T>[]): InsertQueryBuilder<DB, T, InsertResult> {
    const withCompany = (v: TenantInsert<T>) => ({ ...v, companyId: this.companyId });
    const rows = Array.isArray(values) ? (values as readonly TenantInsert<T>[]).map(withCompany) : withCompany(values as TenantInsert<T>);
    // (As with select: Kysely cannot check a generic table's insert object; TenantInsert<T> did.)
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return (this.db.insertInto(table) as any).values(rows);
  }

  /**
   * Rows of a company's table by id, keyed by id: the batch lookup a list's present hook makes for the
   * documents it links to (plans, orders…). Ids repeated or none at all cost nothing.
   */
  async byIds<T extends TenantTable, C extends keyof Selectable<DB[T]> & string>(table: T, columns: readonly C[], ids: Iterable<number>): Promise<Map<number, Pick<Selectable<DB[T]>, C>>> {
    const list = [...new Set(ids)];
    if (!list.length) return new Map();
    // (a generic table again: the column names were checked by C)
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const rows = await (this.select(table) as any).select(['id', ...columns]).where(`${table}.id`, 'in', list).execute();
    return new Map(rows.map((r: Pick<Selectable<DB[T]>, C> & { id: number }) => [Number(r.id), r]));
  }

  /** The same scope over another handle (a transaction). */
  with(db: Untyped | TypedDB): TypedTenant {
    return new TypedTenant(db as unknown as TypedDB, this.companyId);
  }
}
